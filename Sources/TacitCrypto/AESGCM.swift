import CCrypto

/// AES-256-GCM sealing for fields kept at rest: `nonce (12) | ciphertext | tag (16)`.
///
/// The key is set up once, in `init`: each seal or open takes a context already keyed
/// with it and sets only its nonce, instead of fetching the cipher and expanding the key
/// again (a number is opened on every read of its verification). When OpenSSL fails to
/// set a context up or run it, the call throws ``CryptoError`` and the process goes on.
public struct AESGCM: Sendable {
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        public var description: String { "sealed data failed authentication" }
    }

    private let encrypting: ContextPool
    private let decrypting: ContextPool

    /// `key` must be 32 bytes.
    public init(key: [UInt8]) {
        precondition(key.count == 32, "AES-256-GCM needs a 32-byte key")
        encrypting = Self.contexts(key, encrypt: true)
        decrypting = Self.contexts(key, encrypt: false)
    }

    private static func contexts(_ key: [UInt8], encrypt: Bool) -> ContextPool {
        ContextPool(make: { () throws(CryptoError) -> OpaquePointer in
            guard let context = EVP_CIPHER_CTX_new() else { throw .keySetup("AES-GCM: out of memory") }
            guard EVP_CipherInit_ex(context, EVP_aes_256_gcm(), nil, key, nil, encrypt ? 1 : 0) == 1 else {
                EVP_CIPHER_CTX_free(context)
                throw .keySetup("AES-GCM: OpenSSL could not set the key")
            }
            return context
        }, free: { EVP_CIPHER_CTX_free($0) })
    }

    /// - Throws: ``CryptoError`` when OpenSSL fails.
    public func seal(_ plaintext: [UInt8]) throws(CryptoError) -> [UInt8] {
        let nonce = SecureRandom.bytes(12)
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var tag = [UInt8](repeating: 0, count: 16)
        let total = try encrypting.withContext { context throws(CryptoError) -> Int32 in
            var length: Int32 = 0
            guard EVP_EncryptInit_ex(context, nil, nil, nil, nonce) == 1,
                  EVP_EncryptUpdate(context, &output, &length, plaintext, Int32(plaintext.count)) == 1 else {
                throw .operation("AES-GCM encryption failed to start")
            }
            var total = length
            let final = output.withUnsafeMutableBufferPointer { buffer in
                EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(total), &length)
            }
            total += length
            guard final == 1, EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1 else {
                throw .operation("AES-GCM tag could not be read")
            }
            return total
        }
        return nonce + output.prefix(Int(total)) + tag
    }

    /// - Throws: ``OpenError`` when `sealed` wasn't sealed with this key or was changed;
    ///   ``CryptoError`` when OpenSSL fails.
    public func open(_ sealed: [UInt8]) throws -> [UInt8] {
        guard sealed.count >= 28 else { throw OpenError() }
        let nonce = Array(sealed.prefix(12))
        let ciphertext = Array(sealed.dropFirst(12).dropLast(16))
        var tag = Array(sealed.suffix(16))
        var output = [UInt8](repeating: 0, count: ciphertext.count + 16)
        // nil: the data failed authentication, which is the input's fault, not OpenSSL's.
        let total = try decrypting.withContext { context throws(CryptoError) -> Int32? in
            var length: Int32 = 0
            guard EVP_DecryptInit_ex(context, nil, nil, nil, nonce) == 1,
                  EVP_DecryptUpdate(context, &output, &length, ciphertext, Int32(ciphertext.count)) == 1,
                  EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, &tag) == 1 else {
                throw .operation("AES-GCM decryption failed to start")
            }
            let total = length
            let final = output.withUnsafeMutableBufferPointer { buffer in
                EVP_DecryptFinal_ex(context, buffer.baseAddress! + Int(total), &length)
            }
            return final == 1 ? total + length : nil
        }
        guard let total else { throw OpenError() }
        return Array(output.prefix(Int(total)))
    }
}
