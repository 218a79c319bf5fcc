import Foundation
import Synchronization
import TacitHTTP

/// Who may use `--dev`'s keyless access (docs/security.md, "Second adversarial pass"):
/// a caller on this machine that is not a web page of another site. Loopback alone is
/// not enough: any page a browser here opens can post to 127.0.0.1 (a `text/plain`
/// POST needs no preflight), and a site whose name is made to resolve to 127.0.0.1 (DNS
/// rebinding) reads the answers as its own. So a keyless request must also
/// - name this server in `Host`: `localhost`, `127.0.0.1` or `[::1]` with any port (a
///   proxy on this machine, such as HAProxy in front of two instances, listens on its
///   own; a rebinding site's name is never one of these), or its listen address or the
///   public URL's host with the port it listens on, or none; or send no `Host` at all
///   (no browser does that);
/// - carry no `Origin`, or one naming this server or the loopback `Host` the request was
///   sent to (the console is served from it, directly or through that proxy);
/// - carry no `Sec-Fetch-Site`, or `same-origin` or `none` (typed or bookmarked).
/// Scripts, SDKs and the CLI send neither header and name the address they dialled.
final class DevAccess: Sendable {
    private struct Names {
        var hosts: Set<String>
        var ports: Set<Int>
        var origins: Set<String>
    }

    private let configuredHost: String
    private let publicURL: String?
    private let scheme: String
    private let names: Mutex<Names>

    init(host: String, port: Int, publicURL: String?, tls: Bool) {
        configuredHost = host
        self.publicURL = publicURL
        scheme = tls ? "https" : "http"
        names = Mutex(Names(hosts: [], ports: [], origins: []))
        listening(port: port)
    }

    /// The port the server listens on, known once it does (an ephemeral port in tests).
    func listening(port: Int) {
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        if !["0.0.0.0", "::", ""].contains(configuredHost) {
            hosts.insert(configuredHost.contains(":") ? "[\(configuredHost)]" : configuredHost.lowercased())
        }
        var ports: Set<Int> = [port]
        var origins = Set(hosts.map { Self.origin(scheme, $0, port) })
        if let publicURL, let url = URL(string: publicURL), let host = url.host, let publicScheme = url.scheme {
            let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host.lowercased()
            let publicPort = url.port ?? (publicScheme == "https" ? 443 : 80)
            hosts.insert(name)
            ports.insert(publicPort)
            origins.insert(Self.origin(publicScheme.lowercased(), name, publicPort))
        }
        names.withLock { $0 = Names(hosts: hosts, ports: ports, origins: origins) }
    }

    /// Whether a keyless request from loopback may act as the dev application.
    func admits(_ request: HTTPRequest) -> Bool {
        let names = self.names.withLock { $0 }
        if let host = request.header("Host"), !Self.names(host, in: names) { return false }
        if let origin = request.header("Origin").map(Self.normalized), !names.origins.contains(origin),
           !isSameOrigin(origin, host: request.header("Host")) { return false }
        if let site = request.header("Sec-Fetch-Site")?.lowercased(), site != "same-origin", site != "none" {
            return false
        }
        return true
    }

    /// The names of this machine's loopback interface, which a proxy here may use with its own port.
    private static let loopback: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// `host[:port]` names this server: one of its names, with its port or none.
    private static func names(_ authority: String, in names: Names) -> Bool {
        let (name, port) = split(plain(authority))
        if loopback.contains(name) { return true }
        guard names.hosts.contains(name) else { return false }
        guard let port else { return true }
        return Int(port).map(names.ports.contains) ?? false
    }

    /// `[v6]:port`, `name:port`, or either without a port.
    private static func split(_ authority: String) -> (String, Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return (authority, nil) }
            let name = String(authority[...close])
            let rest = authority[authority.index(after: close)...]
            return (name, rest.hasPrefix(":") ? rest.dropFirst() : (rest.isEmpty ? nil : rest))
        }
        guard let colon = authority.lastIndex(of: ":") else { return (authority, nil) }
        return (String(authority[..<colon]), authority[authority.index(after: colon)...])
    }

    /// A page served from the loopback address the request itself was sent to (`Host`): the
    /// console reached through a proxy on this machine. Other names count only as configured.
    private func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, !origin.isEmpty else { return false }
        let (name, port) = Self.split(Self.plain(host))
        guard Self.loopback.contains(name) else { return false }
        return origin == Self.origin(scheme, name, port.flatMap { Int($0) } ?? (scheme == "https" ? 443 : 80))
    }

    /// An origin as browsers send it, with its port always written, for comparison.
    private static func normalized(_ origin: String) -> String {
        let value = plain(origin)
        guard let url = URL(string: value), let scheme = url.scheme, let host = url.host,
              url.path.isEmpty, url.query == nil else { return "" }
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return Self.origin(scheme, name, url.port ?? (scheme == "https" ? 443 : 80))
    }

    /// A header's value without surrounding blanks, lowercased. Every keyless request's
    /// `Host` passes here, and is almost always plain already: kept as it is, without copying.
    private static func plain(_ value: String) -> String {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let upper = UInt8(ascii: "A")...UInt8(ascii: "Z")
        let bytes = value.utf8
        if let first = bytes.first, let last = bytes.last, !blank(first), !blank(last),
           !bytes.contains(where: upper.contains) {
            return value
        }
        return String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            .lowercased()
    }

    private static func origin(_ scheme: String, _ host: String, _ port: Int) -> String {
        "\(scheme)://\(host):\(port)"
    }
}
