import CCrypto
import Synchronization

/// Cryptographically secure random bytes from OpenSSL's CSPRNG.
public enum SecureRandom {
    /// Bytes drawn from OpenSSL ahead of use and handed out in order, each once. A call to
    /// `RAND_bytes` costs about a microsecond and a half whatever its size (its DRBG's lock and
    /// set-up), and a create made five of them (its id, its code, its client token, the nonces
    /// of the two fields it seals): one draw of 4 KB now serves about a hundred creates
    /// (docs/performance.md#random-bytes-drawn-ahead). The bytes are as unpredictable as
    /// OpenSSL's own; a handed-out byte is zeroed in the pool, so it is never given twice.
    private static let pool = Mutex(Pool())
    private static let poolSize = 4096

    private struct Pool: ~Copyable {
        var bytes = [UInt8](repeating: 0, count: SecureRandom.poolSize)
        /// The next byte not handed out; the pool is empty at `bytes.count`.
        var next = SecureRandom.poolSize
    }

    /// Returns `count` random bytes.
    ///
    /// A failure of the system CSPRNG stops the process: every secret in Tacit
    /// (codes, tokens, keys) depends on it, and there is no safe weaker fallback.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes: count must not be negative")
        guard count > 0 else { return [] }
        // Keys and other large draws come straight from OpenSSL.
        guard count <= 64 else { return drawn(count) }
        return pool.withLock { pool in
            if pool.next + count > pool.bytes.count {
                pool.bytes = drawn(poolSize)
                pool.next = 0
            }
            let range = pool.next..<pool.next + count
            let taken = Array(pool.bytes[range])
            pool.bytes.replaceSubrange(range, with: repeatElement(0, count: count))
            pool.next += count
            return taken
        }
    }

    private static func drawn(_ count: Int) -> [UInt8] {
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
