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
}
