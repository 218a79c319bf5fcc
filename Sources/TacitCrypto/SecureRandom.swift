import CCrypto

/// Cryptographically secure random bytes from OpenSSL's CSPRNG.
public enum SecureRandom {
    /// Returns `count` random bytes.
    ///
    /// A failure of the system CSPRNG stops the process: every secret in Tacit
    /// (codes, tokens, keys) depends on it, and there is no safe weaker fallback.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes: count must not be negative")
        guard count > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        let status = buffer.withUnsafeMutableBufferPointer { pointer in
            RAND_bytes(pointer.baseAddress, Int32(count))
        }
        guard status == 1 else {
            fatalError("SecureRandom: OpenSSL RAND_bytes failed; refusing to continue without a secure RNG")
        }
        return buffer
    }
}
