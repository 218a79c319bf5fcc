/// Query strings for redirects, built byte by byte: Foundation's `URLComponents` is slow
/// on Linux and leaves `+` unencoded, which receivers read as a space.
public enum QueryString {
    /// `text` with every byte outside RFC 3986's unreserved set percent-encoded.
    public static func encode(_ text: String) -> String {
        // Check URLs and redirects carry long sealed tokens, all unreserved: most text is returned as it is.
        guard !text.utf8.allSatisfy(isUnreserved) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `url` with `items` added to its query, before any fragment.
    public static func appending(_ items: [(name: String, value: String)], to url: String) -> String {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let base = url[..<fragmentStart], fragment = url[fragmentStart...]
        let query = items.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
        guard !query.isEmpty else { return url }
        let separator = !base.contains("?") ? "?" : (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&")
        return base + separator + query + fragment
    }

    /// Whether `url` is an absolute `http` or `https` URL with a host, made of printable
    /// ASCII that needs no escaping in a `Location` header.
    public static func isAbsoluteHTTP(_ url: String) -> Bool {
        let lower = url.lowercased()
        guard let scheme = ["http://", "https://"].first(where: lower.hasPrefix) else { return false }
        guard url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !forbidden.contains($0) }) else { return false }
        let authority = url.utf8.dropFirst(scheme.utf8.count).prefix { !"/?#".utf8.contains($0) }
        let host = authority.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false).last ?? []
        return !host.isEmpty && host.first != UInt8(ascii: ":")
    }

    private static let forbidden = Set("\"<>\\^`{|}".utf8)
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }
}
