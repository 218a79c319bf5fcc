// Inlinable: callers in other modules then specialize these for the string type they
// have, where a call across the module went through `StringProtocol`'s witnesses for
// every byte (1.6 µs for a check's six-digit code; docs/performance.md).

extension UInt8 {
    /// An ASCII digit.
    @inlinable public var isDigitByte: Bool { (48...57).contains(self) }

    /// An ASCII letter, digit, `-` or `_`: a byte of an id, token or silent code.
    @inlinable public var isTokenByte: Bool {
        isDigitByte || (65...90).contains(self) || (97...122).contains(self)
            || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
    }
}

extension StringProtocol {
    /// Only ASCII letters, digits, `-` and `_`: the shape of ids, tokens and silent codes.
    /// Checked byte by byte (a `Character` walk costs grapheme breaking and Unicode lookups).
    @inlinable public var isTokenText: Bool {
        utf8.allSatisfy(\.isTokenByte)
    }

    /// Only ASCII digits, checked byte by byte.
    @inlinable public var isASCIIDigits: Bool {
        utf8.allSatisfy(\.isDigitByte)
    }

    /// Whether `needle` occurs in the text, byte by byte, without building copies.
    /// - `ignoringASCIICase`: `needle` is lower-case ASCII and the text may be in any case.
    /// - `atTokenStart`: only where no token byte comes just before (so `redirect_followed`
    ///   does not hold the token prefix `ct_`).
    @inlinable
    public func containsBytes(_ needle: String, ignoringASCIICase: Bool = false, atTokenStart: Bool = false) -> Bool {
        let bytes = Array(utf8), target = Array(needle.utf8)
        guard !target.isEmpty, bytes.count >= target.count else { return target.isEmpty }
        for start in 0...(bytes.count - target.count)
        where !atTokenStart || start == 0 || !bytes[start - 1].isTokenByte {
            var offset = 0
            while offset < target.count {
                let byte = bytes[start + offset]
                let folded = ignoringASCIICase && (65...90).contains(byte) ? byte | 0x20 : byte
                guard folded == target[offset] else { break }
                offset += 1
            }
            if offset == target.count { return true }
        }
        return false
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` in decimal ASCII digits, zero-padded to at least `width`.
    @inlinable public mutating func appendDigits(_ value: UInt64, width: Int = 1) {
        var divisor: UInt64 = 1
        var count = 1
        while count < width || value / divisor >= 10 {
            divisor *= 10
            count += 1
        }
        while divisor > 0 {
            append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
