/// The shape a price must have to be kept (docs/api.md#insights): a decimal of at most 12
/// whole digits and 8 places, signed or not (providers write charges as negatives), and an
/// ISO 4217 code of three capitals. Anything else a provider writes is dropped.
public enum Price {
    public static func isWellFormed(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, (1...12).contains(whole.count), whole.allSatisfy(isDigit) else { return false }
        guard parts.count == 2 else { return true }
        return (1...8).contains(parts[1].count) && parts[1].allSatisfy(isDigit)
    }

    public static func isCurrency(_ text: String) -> Bool {
        text.count == 3 && text.allSatisfy { $0.isASCII && $0.isUppercase }
    }

    /// The price without its sign: what the message cost.
    public static func magnitude(_ text: String) -> String {
        text.first == "-" || text.first == "+" ? String(text.dropFirst()) : text
    }

    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }
}
