/// An email address as an email step takes it (docs/api.md#email-steps): checked for its
/// shape only (no lookup), and redacted like a phone number wherever it is shown.
public enum EmailAddress {
    /// RFC 5321's limit on a path, in bytes.
    public static let maximumLength = 254

    /// Why `text` can't be an address, or nil when it can: exactly one `@`, something
    /// before it, a domain with a dot that neither starts nor ends the domain, no spaces
    /// or control characters, at most 254 bytes.
    public static func problem(_ text: String) -> String? {
        let rule = "must be an email address (one @, a domain with a dot, at most 254 bytes)"
        guard !text.isEmpty, text.utf8.count <= maximumLength else { return rule }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty,
              domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains(".."),
              text.unicodeScalars.allSatisfy(isAllowed) else { return rule }
        return nil
    }

    /// No space, control character or the punctuation that would let an address break out
    /// of a header or an SMTP command.
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x20 && scalar.value != 0x7F && !"<>()[],;:\"\\".unicodeScalars.contains(scalar)
    }

    /// The address as stored and sent: the domain lowercased, the local part as given.
    public static func normalized(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        return String(text[..<at]) + "@" + text[text.index(after: at)...].lowercased()
    }

    /// `person@example.com` → `p•••••@example.com`: the local part's first character only.
    public static func redacted(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return String(repeating: Redactor.mask, count: 5) }
        let first = address[..<at].first.map(String.init) ?? ""
        return first + String(repeating: Redactor.mask, count: 5) + address[at...]
    }
}
