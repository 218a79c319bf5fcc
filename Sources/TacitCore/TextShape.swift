extension StringProtocol {
    /// Only ASCII letters, digits, `-` and `_`: the shape of ids, tokens and silent codes.
    /// Checked byte by byte (a `Character` walk costs grapheme breaking and Unicode lookups).
    public var isTokenText: Bool {
        utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// Only ASCII digits, checked byte by byte.
    public var isASCIIDigits: Bool {
        utf8.allSatisfy { (48...57).contains($0) }
    }

    /// Whether `needle` (lower-case ASCII) occurs in the text, ignoring ASCII case; byte by
    /// byte, without building a lower-cased copy.
    public func containsASCIICaseInsensitive(_ needle: String) -> Bool {
        let bytes = Array(utf8), target = Array(needle.utf8)
        guard !target.isEmpty, bytes.count >= target.count else { return target.isEmpty }
        for start in 0...(bytes.count - target.count) {
            var offset = 0
            while offset < target.count, bytes[start + offset] | Self.lowerCaseBit(bytes[start + offset]) == target[offset] {
                offset += 1
            }
            if offset == target.count { return true }
        }
        return false
    }

    /// 0x20 for an ASCII capital (OR-ing it gives the lower-case letter), else 0.
    private static func lowerCaseBit(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? 0x20 : 0
    }
}
