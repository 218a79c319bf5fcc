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
