/// Email addresses in free text, masked as `EmailAddress.redacted` shows them: a note or a
/// log line that quotes an address keeps only its first character and its domain.
extension Redactor {
    static func scrubAddresses(_ text: String) -> String {
        // Most text has no `@`: one pass over the bytes settles it.
        guard text.utf8.contains(UInt8(ascii: "@")) else { return text }
        var output = ""
        var word = ""
        func flush() {
            output += isAddressLike(word) ? EmailAddress.redacted(word) : word
            word = ""
        }
        for character in text {
            if character.isWhitespace || "<>()[],;:\"'".contains(character) {
                flush()
                output.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return output
    }

    /// Something before an `@`, a dotted domain after it; an address already masked
    /// (`p•••••@…`) is left as it is.
    private static func isAddressLike(_ word: String) -> Bool {
        guard let at = word.lastIndex(of: "@"), at != word.startIndex else { return false }
        let domain = word[word.index(after: at)...]
        return domain.contains(".") && !word[..<at].hasSuffix(mask + mask + mask + mask + mask)
    }
}
