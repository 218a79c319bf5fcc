import CCrypto

/// An RSA public key for checking RS256 signatures, read from PEM as SubjectPublicKeyInfo
/// (`BEGIN PUBLIC KEY`, what `openssl pkey -pubout` and Vonage's dashboard give).
///
/// The one owner of its `EVP_PKEY`, freed in `deinit`.
public final class RSAPublicKey: @unchecked Sendable {
    // @unchecked: the key is never changed after init, and OpenSSL 3 allows one EVP_PKEY to
    // verify from many threads at once, each with its own EVP_MD_CTX.
    let key: OpaquePointer

    /// - Throws: ``CryptoError`` `key_setup` when `pem` holds no public key, or one that is
    ///   not RSA or is shorter than 2048 bits.
    public init(pem: String) throws(CryptoError) {
        key = try PEMReader.checkedRSA(try PEMReader.read(pem, what: "public key") { bio in
            PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        })
    }

    deinit { EVP_PKEY_free(key) }

    /// Whether `signature` is the RS256 signature of `message` by this key's private half.
    public func isValid(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        PEMReader.verify(signature, message: message, key: key)
    }
}
