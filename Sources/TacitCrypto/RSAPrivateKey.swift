import CCrypto

/// An RSA private key for RS256 signatures, read from PEM: PKCS#8 (`BEGIN PRIVATE KEY`, what
/// Vonage's dashboard downloads) or PKCS#1 (`BEGIN RSA PRIVATE KEY`, what older tools write).
/// An encrypted key is refused rather than prompting for a passphrase on the terminal.
///
/// The one owner of its `EVP_PKEY`, freed in `deinit`.
public final class RSAPrivateKey: @unchecked Sendable {
    // @unchecked: the key is never changed after init, and OpenSSL 3 allows one EVP_PKEY to
    // sign from many threads at once, each with its own EVP_MD_CTX.
    let key: OpaquePointer

    /// The smallest modulus taken: Vonage makes 2048-bit keys, and less is breakable.
    public static let minimumBits: Int32 = 2048

    /// - Throws: ``CryptoError`` `key_setup` when `pem` holds no unencrypted private key, or one
    ///   that is not RSA or is shorter than ``minimumBits``. The description never holds the key.
    public init(pem: String) throws(CryptoError) {
        // Checked before it is stored: once `key` is set, a throw would still run deinit.
        key = try PEMReader.checkedRSA(try PEMReader.read(pem, what: "private key") { bio in
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        })
    }

    deinit { EVP_PKEY_free(key) }

    /// The RSASSA-PKCS1-v1_5 signature of `message` with SHA-256: what JWT's RS256 is.
    ///
    /// - Throws: ``CryptoError`` `operation` when OpenSSL can't sign; the request fails, not the process.
    public func sign(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .operation("RSA: out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
              EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            ERR_clear_error()
            throw .operation("RSA: OpenSSL could not start a signature")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            ERR_clear_error()
            throw .operation("RSA: OpenSSL could not sign")
        }
        return Array(signature.prefix(length))
    }

    /// Whether `signature` is this key's RS256 signature of `message`.
    public func isValid(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        PEMReader.verify(signature, message: message, key: key)
    }

    /// The public half, as a server that registers this key's holder would be given it.
    ///
    /// - Throws: ``CryptoError`` `operation` when OpenSSL can't write it.
    public func publicKey() throws(CryptoError) -> RSAPublicKey {
        guard let bio = BIO_new(BIO_s_mem()) else { throw .operation("RSA: out of memory") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PUBKEY(bio, key) == 1 else {
            ERR_clear_error()
            throw .operation("RSA: OpenSSL could not write the public key")
        }
        var pointer: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
        guard length > 0, let pointer else { throw .operation("RSA: OpenSSL could not write the public key") }
        let pem = String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
        return try RSAPublicKey(pem: pem)
    }
}

/// PEM parsing and the RSA checks shared by the private and public key types.
enum PEMReader {
    static func read(
        _ pem: String, what: String, _ parse: (OpaquePointer) -> OpaquePointer?
    ) throws(CryptoError) -> OpaquePointer {
        let bytes = Array(pem.utf8)
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return parse(bio)
        }
        guard let parsed else {
            ERR_clear_error()
            throw .keySetup("RSA: not a PEM \(what)")
        }
        return parsed
    }

    /// `key` when it is RSA of at least the minimum size; otherwise frees it and throws.
    static func checkedRSA(_ key: OpaquePointer) throws(CryptoError) -> OpaquePointer {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else {
            EVP_PKEY_free(key)
            throw .keySetup("RSA: the key is not an RSA key")
        }
        guard EVP_PKEY_get_bits(key) >= RSAPrivateKey.minimumBits else {
            EVP_PKEY_free(key)
            throw .keySetup("RSA: the key is shorter than 2048 bits")
        }
        return key
    }

    static func verify(_ signature: [UInt8], message: [UInt8], key: OpaquePointer) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let valid = EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1
            && EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        // A failed check leaves its reason on the thread's error queue; the answer is enough.
        if !valid { ERR_clear_error() }
        return valid
    }
}
