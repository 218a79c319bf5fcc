import Foundation

/// The cookies of one silent check's redirect chain, kept for that run only. Tacit
/// binds the operator's answer to the device that opened the check URL with a cookie
/// it sets there and reads back at its callback, as a browser would carry it; carrier
/// hops may set their own. A small part of RFC 6265 is enough for that: host-only
/// cookies, the `Path`, `Secure`, and `Max-Age=0` to delete one.
struct CarrierCookies: Sendable {
    private struct Cookie: Sendable {
        var name: String
        var value: String
        var origin: String
        var path: String
        var secure: Bool
    }

    private var cookies: [Cookie] = []

    /// Keeps the cookie `response` sets, if any, for the host that answered `url`.
    mutating func store(from response: CellularResponse, for url: URL) {
        guard let line = response.header("Set-Cookie"), let origin = Self.origin(url) else { return }
        let parts = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let pair = parts.first, let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { return }
        var cookie = Cookie(name: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...]),
                            origin: origin, path: Self.defaultPath(url), secure: false)
        var expired = false
        for attribute in parts.dropFirst() {
            let (key, value) = Self.attribute(attribute)
            switch key {
            case "path" where value.hasPrefix("/"): cookie.path = value
            case "secure": cookie.secure = true
            case "max-age": expired = Int(value).map { $0 <= 0 } ?? false
            default: break
            }
        }
        cookies.removeAll { $0.name == cookie.name && $0.origin == cookie.origin && $0.path == cookie.path }
        if !expired { cookies.append(cookie) }
    }

    /// The `Cookie` header for a request to `url`, nil when no cookie applies.
    func header(for url: URL) -> String? {
        guard let origin = Self.origin(url) else { return nil }
        let path = url.path.isEmpty ? "/" : url.path
        let matching = cookies.filter { cookie in
            cookie.origin == origin && (!cookie.secure || url.scheme?.lowercased() == "https")
                && Self.pathMatches(path, cookie.path)
        }
        return matching.isEmpty ? nil : matching.map { $0.name + "=" + $0.value }.joined(separator: "; ")
    }

    /// Host and port: a cookie goes back only to the server that set it.
    private static func origin(_ url: URL) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let scheme = url.scheme?.lowercased()
        return host + ":" + String(url.port ?? (scheme == "https" ? 443 : 80))
    }

    private static func defaultPath(_ url: URL) -> String {
        let path = url.path
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// RFC 6265 §5.1.4: the cookie's path is the request path, or a prefix of it ending at a `/`.
    private static func pathMatches(_ path: String, _ cookiePath: String) -> Bool {
        guard path.hasPrefix(cookiePath) else { return false }
        return path.count == cookiePath.count || cookiePath.hasSuffix("/")
            || path.dropFirst(cookiePath.count).hasPrefix("/")
    }

    private static func attribute(_ text: String) -> (String, String) {
        let pair = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        return (pair.first?.lowercased() ?? "", pair.count > 1 ? pair[1] : "")
    }
}
