import CCrypto

/// Keyed message authentication (RFC 2104) over OpenSSL.
public enum HMAC {
    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        compute(EVP_sha256(), key: key, message: message)
    }

    /// HMAC-SHA1 of `message` under `key` (20 bytes), for Twilio-style
    /// `X-Twilio-Signature` callbacks; don't use it for anything new.
    public static func sha1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        compute(EVP_sha1(), key: key, message: message)
    }

    private static func compute(_ digest: OpaquePointer?, key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // OpenSSL reads a NULL key as "reuse the previous key", so an empty key
        // still gets a real (zero-length) buffer.
        let keyBytes = key.isEmpty ? [0] : key
        let result = keyBytes.withUnsafeBufferPointer { keyPointer in
            message.withUnsafeBufferPointer { messagePointer in
                CCrypto.HMAC(
                    digest, keyPointer.baseAddress, Int32(key.count),
                    messagePointer.baseAddress ?? keyPointer.baseAddress, message.count,
                    &output, &length)
            }
        }
        guard result != nil else { fatalError("HMAC: OpenSSL HMAC failed") }
        return Array(output.prefix(Int(length)))
    }
}

extension HMAC {
    /// An HMAC-SHA256 key set up once, for keys that sign on every request (code hashes,
    /// token and number indexes). Each use restarts a context already keyed with it,
    /// instead of fetching the algorithm and hashing the key again as the one-shot
    /// `sha256(key:message:)` does: about a quarter of the cost.
    public final class SHA256Key: Sendable {
        private let contexts: ContextPool

        public convenience init(_ key: [UInt8]) {
            self.init(key, digest: "SHA256")
        }

        /// `digest` names OpenSSL's digest; only tests pass another, to make set-up fail.
        init(_ key: [UInt8], digest: String) {
            contexts = ContextPool(
                make: { () throws(CryptoError) -> OpaquePointer in try Self.keyed(key, digest: digest) },
                free: { EVP_MAC_CTX_free($0) })
        }

        private static func keyed(_ key: [UInt8], digest: String) throws(CryptoError) -> OpaquePointer {
            guard let algorithm = EVP_MAC_fetch(nil, "HMAC", nil) else { throw .keySetup("HMAC: OpenSSL has no HMAC") }
            defer { EVP_MAC_free(algorithm) }
            guard let context = EVP_MAC_CTX_new(algorithm) else { throw .keySetup("HMAC: out of memory") }
            let keyBytes = key.isEmpty ? [0] : key
            let ready = try MACParameters.withDigest(digest) { parameters in
                EVP_MAC_init(context, keyBytes, key.count, parameters) == 1
            }
            guard ready else {
                EVP_MAC_CTX_free(context)
                throw .keySetup("HMAC: OpenSSL could not set the key")
            }
            return context
        }

        /// HMAC-SHA256 of `message`: the same bytes as `HMAC.sha256(key:message:)`.
        ///
        /// - Throws: ``CryptoError`` when OpenSSL can't set a context up or run it; the
        ///   request fails, not the process.
        public func authenticate(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
            var output = [UInt8](repeating: 0, count: 32)
            var length = 0
            // A nil key restarts the MAC with the key the context already holds.
            try contexts.withContext { context throws(CryptoError) in
                guard EVP_MAC_init(context, nil, 0, nil) == 1, EVP_MAC_update(context, message, message.count) == 1,
                      EVP_MAC_final(context, &output, &length, output.count) == 1, length == 32 else {
                    throw .operation("HMAC: OpenSSL HMAC failed")
                }
            }
            return output
        }
    }
}
