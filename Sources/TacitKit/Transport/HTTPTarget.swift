import Foundation

/// The parts of an `http://` or `https://` URL a raw HTTP/1.1 client needs.
struct HTTPTarget: Sendable {
    /// Without IPv6 brackets.
    let host: String
    let port: Int
    /// True for `https://`: the exchange runs over TLS, verified against `host`.
    let isSecure: Bool
    /// Path and query, percent-encoded as in the URL.
    let pathAndQuery: String
    /// The `Host` header value (brackets kept, port when not the scheme's default).
    let hostHeader: String

    init(_ url: URL) throws {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = parts.scheme?.lowercased(), scheme == "http" || scheme == "https",
              var host = parts.percentEncodedHost, !host.isEmpty else {
            throw CellularTransportError(.unsupportedURL, "only http:// and https:// URLs are supported")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        isSecure = scheme == "https"
        let defaultPort = isSecure ? 443 : 80
        port = parts.port ?? defaultPort
        let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        pathAndQuery = path + (parts.percentEncodedQuery.map { "?\($0)" } ?? "")
        let shownHost = host.contains(":") ? "[\(host)]" : host
        hostHeader = port == defaultPort ? shownHost : "\(shownHost):\(port)"
    }

    /// The request head and body. `Connection: close` keeps reading simple: one
    /// exchange per connection, which is also what a carrier hop looks like.
    func requestBytes(_ request: CellularRequest) -> [UInt8] {
        var head = "\(request.method) \(pathAndQuery) HTTP/1.1\r\nHost: \(hostHeader)\r\nConnection: close\r\n"
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key })
        where !["host", "connection", "content-length"].contains(name.lowercased()) {
            // CR or LF in a name or value would let it inject headers.
            let clean = { (text: String) in text.filter { $0 != "\r" && $0 != "\n" } }
            head += "\(clean(name)): \(clean(value))\r\n"
        }
        if let body = request.body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (request.body.map(Array.init) ?? [])
    }
}
