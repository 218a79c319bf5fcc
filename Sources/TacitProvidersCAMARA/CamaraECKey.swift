import CCrypto
import TacitCrypto

/// A P-256 private key for ES256 signatures (RFC 7518 §3.4), read from PEM: PKCS#8
/// (`BEGIN PRIVATE KEY`) or SEC 1 (`BEGIN EC PRIVATE KEY`, what `openssl ecparam -genkey`
/// writes). Another curve, or an encrypted key, is refused.
///
/// The one owner of its `EVP_PKEY`, freed in `deinit`. It lives here rather than in
/// TacitCrypto while CAMARA is the only user of ES256.
final class CamaraECKey: @unchecked Sendable {
    // @unchecked: the key is never changed after init, and OpenSSL 3 allows one EVP_PKEY to
    // sign from many threads at once, each with its own EVP_MD_CTX.
    let key: OpaquePointer

    /// - Throws: ``CryptoError`` `key_setup` when `pem` holds no unencrypted private key, or
    ///   one that is not EC on P-256. The description never holds the key.
    init(pem: String) throws(CryptoError) {
        key = try Self.checkedP256(try Self.read(pem))
    }

    /// Any unencrypted private key in `pem`; the passphrase callback refuses to prompt.
    private static func read(_ pem: String) throws(CryptoError) -> OpaquePointer {
        let bytes = Array(pem.utf8)
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let parsed else {
            ERR_clear_error()
            throw .keySetup("EC: not a PEM private key")
        }
        return parsed
    }

    deinit { EVP_PKEY_free(key) }

    private static func checkedP256(_ key: OpaquePointer) throws(CryptoError) -> OpaquePointer {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC,
              EVP_PKEY_get_utf8_string_param(key, "group", &name, name.count, &length) == 1,
              String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1" else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw .keySetup("EC: the key is not an EC key on P-256")
        }
        return key
    }

    /// The ES256 signature of `message`: ECDSA over SHA-256, as JWS writes it, `r` and `s`
    /// each as 32 big-endian bytes (not OpenSSL's DER).
    ///
    /// - Throws: ``CryptoError`` `operation` when OpenSSL can't sign.
    func sign(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .operation("EC: out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
              EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            ERR_clear_error()
            throw .operation("EC: OpenSSL could not start a signature")
        }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1,
              let raw = Self.raw(fromDER: Array(der.prefix(length))) else {
            ERR_clear_error()
            throw .operation("EC: OpenSSL could not sign")
        }
        return raw
    }

    /// `SEQUENCE { INTEGER r, INTEGER s }` (short form lengths: a P-256 signature is at most
    /// 72 bytes) as `r ‖ s`, each left-padded to 32 bytes.
    static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2 else { return nil }
        var index = 2
        var out: [UInt8] = []
        for _ in 0..<2 {
            guard index + 2 <= der.count, der[index] == 0x02 else { return nil }
            let length = Int(der[index + 1])
            guard index + 2 + length <= der.count else { return nil }
            let integer = der[(index + 2)..<(index + 2 + length)].drop { $0 == 0 }
            guard integer.count <= 32 else { return nil }
            out += [UInt8](repeating: 0, count: 32 - integer.count) + integer
            index += 2 + length
        }
        return index == der.count ? out : nil
    }
}
