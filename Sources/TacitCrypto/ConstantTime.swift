import CCrypto

/// Comparisons whose running time doesn't depend on where the inputs differ.
public enum ConstantTime {
    /// True when `a` and `b` hold the same bytes.
    ///
    /// Different lengths return false without reading the bytes; the length of
    /// a MAC or hashed code is public, so that reveals nothing secret.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, a.count) == 0
            }
        }
    }

    /// True when the UTF-8 bytes of `a` and `b` are the same.
    public static func equals(_ a: String, _ b: String) -> Bool {
        equals(Array(a.utf8), Array(b.utf8))
    }
}
