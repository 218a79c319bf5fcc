/// The lines that let a phone fill a code in by itself (docs/locales.md#autofill): an
/// Android SMS Retriever hash on its own line, and the origin-bound line `@example.com #123456`
/// of the WICG origin-bound one-time codes format, always last.
public enum SMSAutofill {
    /// Why an app hash is refused.
    public static let appHashRule = "must be exactly 11 characters of A-Z, a-z, 0-9, + and /"
    /// Why an origin is refused.
    public static let originRule = "must be a domain name such as example.com, without a scheme, port or path"

    /// Whether `text` is an SMS Retriever hash: 11 characters of the base64 alphabet, as
    /// Android's AppSignatureHelper makes them (the first 9 bytes of a SHA-256, base64).
    public static func isAppHash(_ text: String) -> Bool {
        text.unicodeScalars.count == 11 && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "+"
                               || scalar == "/")
        }
    }

    /// Whether `text` is a domain an origin-bound line may name: labels of letters, digits
    /// and hyphens, at least two, at most 253 characters, none starting or ending in a hyphen.
    public static func isOrigin(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= 253, labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic
                    || ("0"..."9").contains($0) || $0 == "-") }
        }
    }

    /// `body` with the autofill lines: the hash on its own line unless `body` already holds
    /// it, then the origin-bound line last unless `body` already ends with it.
    public static func append(to body: String, appHash: String?, origin: String?, code: String) -> String {
        var lines = body
        if let appHash, !appHash.isEmpty, !body.contains(appHash) { lines += "\n" + appHash }
        if let origin, !origin.isEmpty {
            let bound = "@\(origin) #\(code)"
            if !lines.hasSuffix("\n" + bound) && lines != bound { lines += "\n" + bound }
        }
        return lines
    }
}
