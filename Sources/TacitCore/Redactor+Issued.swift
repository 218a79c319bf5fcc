import Foundation

/// Device free text, scrubbed against what its verification issued. The text is
/// normalised first (NFKC: full-width and other compatibility digits become ASCII),
/// and digits count as one run across separators (spaces, dashes, dots, brackets,
/// invisible formatting), so `616 420`, `6-1-6-4-2-0` and `+990.1234.5670` are seen
/// as the code and the number they spell. What is kept matches docs/events.md#redaction: a number its
/// country code and last 4 digits, a code at most its last 2, a token nothing.
extension Redactor {
    /// A span of the normalised text's scalars and what replaces it.
    struct Mask {
        var range: Range<Int>
        var replacement: String
    }

    /// The normalised text with every issued secret it spells masked. The generic
    /// `scrub` still runs when the event is stored.
    public static func scrub(_ text: String, issued: IssuedSecrets) -> String {
        let scalars = Array(text.precomposedStringWithCompatibilityMapping.unicodeScalars)
        let masks = digitMasks(in: scalars, issued: issued) + tokenMasks(in: scalars, tails: issued.tokenTails)
        return apply(masks, to: scalars)
    }

    /// Decimal digits of any script, with their positions, joined across up to 3 separators.
    static func digitChains(in scalars: [Unicode.Scalar]) -> [[(digit: Character, at: Int)]] {
        var chains: [[(digit: Character, at: Int)]] = []
        var chain: [(digit: Character, at: Int)] = []
        var gap = 0
        for (index, scalar) in scalars.enumerated() {
            if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue {
                chain.append((Character(String(Int(value))), index))
                gap = 0
            } else if isSeparator(scalar), !chain.isEmpty, gap < 3 {
                gap += 1
            } else {
                if !chain.isEmpty { chains.append(chain) }
                chain = []
                gap = 0
            }
        }
        if !chain.isEmpty { chains.append(chain) }
        return chains
    }

    /// What people put between digit groups, and what hides between characters unseen.
    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace { return true }
        switch scalar.properties.generalCategory {
        case .dashPunctuation, .otherPunctuation, .openPunctuation, .closePunctuation, .connectorPunctuation, .format:
            return true
        default:
            return scalar == "+"
        }
    }

    static func digitMasks(in scalars: [Unicode.Scalar], issued: IssuedSecrets) -> [Mask] {
        let number = Array(issued.phoneNumber.filter(\.isASCIIDigit))
        return digitChains(in: scalars).flatMap { chain in
            numberMasks(in: chain, number: number, scalars: scalars) + codeMasks(in: chain, issued: issued)
        }
    }

    /// Every place the chain spells the number's last 7 or more digits, extended left as far
    /// as it keeps matching; a leading `+` goes with it.
    static func numberMasks(in chain: [(digit: Character, at: Int)], number: [Character],
                            scalars: [Unicode.Scalar]) -> [Mask] {
        let least = min(IssuedSecrets.minimumNumberDigits, number.count)
        guard number.count >= 4, chain.count >= least else { return [] }
        var masks: [Mask] = []
        for end in (least - 1)..<chain.count {
            var length = 0
            while length < number.count, length <= end, chain[end - length].digit == number[number.count - 1 - length] {
                length += 1
            }
            guard length >= least else { continue }
            var start = chain[end - length + 1].at
            if start > 0, scalars[start - 1] == "+" { start -= 1 }
            let kept = length == number.count
                ? phone(String(number))
                : String(repeating: mask, count: 5) + String(number.suffix(4))
            masks.append(Mask(range: start..<(chain[end].at + 1), replacement: kept))
        }
        return masks
    }

    /// Every window of the code's length that is the verification's current code.
    static func codeMasks(in chain: [(digit: Character, at: Int)], issued: IssuedSecrets) -> [Mask] {
        let length = issued.codeLength
        guard length > 0, chain.count >= length else { return [] }
        return (0...(chain.count - length)).compactMap { start in
            let digits = String(chain[start..<(start + length)].map(\.digit))
            guard issued.isCode(digits) else { return nil }
            return Mask(range: chain[start].at..<(chain[start + length - 1].at + 1), replacement: code(digits))
        }
    }
}
