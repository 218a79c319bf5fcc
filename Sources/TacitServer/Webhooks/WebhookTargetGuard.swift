import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Refuses webhook targets that resolve to private, loopback, link-local, multicast,
/// unspecified or otherwise non-public addresses (IPv4 and IPv6), so a configured URL
/// can't be turned against the server's own network. Every address a name resolves to
/// must be public.
///
/// The name is resolved once: a plain-http target is then called at the address that was
/// checked, with the name in `Host` (`target(for:)`), so a name that resolves to a public
/// address for the check and to a private one for the connection (DNS rebinding) can't
/// move the call. An https target keeps its name, which TLS needs for SNI and to check the
/// certificate: a rebound private address can't present a certificate for the name, so
/// the handshake fails before anything is sent (docs/security.md, "Second adversarial pass").
struct WebhookTargetGuard: Sendable {
    let allowPrivate: Bool
    /// Name resolution, IPv4 addresses as 4 bytes and IPv6 as 16; injected by tests.
    var resolve: @Sendable (String) -> [[UInt8]]? = { WebhookTargetGuard.resolve($0) }

    /// Where a webhook for `url` is sent: the URL to connect to and the headers that name
    /// the original host.
    struct Target: Sendable {
        var url: URL
        var headers: [(String, String)] = []
    }

    /// Why `host` must not be called, or nil when it may be.
    func refusal(host: String) -> String? {
        if allowPrivate { return nil }
        switch check(host) {
        case .failure(let reason): return reason.text
        case .success: return nil
        }
    }

    /// `url` pinned to the address its host was checked at, or nil when it must not be called.
    func target(for url: URL) -> Target? {
        guard let host = url.host, !host.isEmpty else { return nil }
        let checked = check(host)
        guard case .success(let address) = checked else {
            // With private targets allowed there is nothing to protect: an unresolved name is tried as it is.
            return allowPrivate ? Target(url: url) : nil
        }
        guard url.scheme?.lowercased() == "http", let address,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return Target(url: url) }
        let authority = url.port.map { "\(host):\($0)" } ?? host
        components.host = Self.literal(address)
        guard let pinned = components.url else { return nil }
        return Target(url: pinned, headers: [("Host", authority)])
    }

    private struct Refusal: Error {
        var text: String
    }

    /// The address to call `host` at (nil for a literal or when any will do), or why not.
    private func check(_ host: String) -> Result<[UInt8]?, Refusal> {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard let addresses = resolve(bare), let first = addresses.first else {
            return .failure(Refusal(text: "the webhook host does not resolve"))
        }
        if !allowPrivate, addresses.contains(where: Self.isNonPublic) {
            return .failure(Refusal(text: "the webhook host resolves to a private or reserved address"))
        }
        return .success(first)
    }

    /// An address as a URL host: dotted IPv4, or bracketed IPv6.
    static func literal(_ address: [UInt8]) -> String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") }
        var words: [String] = []
        for index in stride(from: 0, to: address.count, by: 2) {
            words.append(String(UInt16(address[index]) << 8 | UInt16(address[index + 1]), radix: 16))
        }
        return "[" + words.joined(separator: ":") + "]"
    }

    /// IPv4 addresses as 4 bytes, IPv6 as 16.
    static func resolve(_ host: String) -> [[UInt8]]? {
        // Zeroed hints ask for every address family, IPv4 and IPv6 alike.
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return nil }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var cursor = list
        while let info = cursor {
            if let bytes = bytes(of: info.pointee) { addresses.append(bytes) }
            cursor = info.pointee.ai_next
        }
        return addresses
    }

    private static func bytes(of info: addrinfo) -> [UInt8]? {
        guard let address = info.ai_addr else { return nil }
        switch info.ai_family {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
        default: return nil
        }
    }

    /// True for every address a public webhook receiver can't have.
    static func isNonPublic(_ address: [UInt8]) -> Bool {
        if address.count == 4 { return isNonPublicV4(address) }
        guard address.count == 16 else { return true }
        let a = address
        if a.allSatisfy({ $0 == 0 }) { return true }                                   // ::
        if a.dropLast().allSatisfy({ $0 == 0 }) && a[15] == 1 { return true }          // ::1
        if a[0] == 0xFE && a[1] & 0xC0 == 0x80 { return true }                         // fe80::/10 link-local
        if a[0] == 0xFE && a[1] & 0xC0 == 0xC0 { return true }                         // fec0::/10 site-local
        if a[0] & 0xFE == 0xFC { return true }                                         // fc00::/7 unique local
        if a[0] == 0xFF { return true }                                                // ff00::/8 multicast
        if a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0D && a[3] == 0xB8 { return true } // 2001:db8::/32 documentation
        if a[0..<10].allSatisfy({ $0 == 0 }) && a[10] == 0xFF && a[11] == 0xFF {       // ::ffff:a.b.c.d mapped
            return isNonPublicV4(Array(a[12...]))
        }
        if a[0..<12].allSatisfy({ $0 == 0 }) { return true }                           // ::a.b.c.d compatible
                                                                                       // (deprecated)
        if a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xFF && a[3] == 0x9B && a[4..<12].allSatisfy({ $0 == 0 }) {
            return isNonPublicV4(Array(a[12...]))                                      // 64:ff9b::/96 NAT64
        }
        if a[0] == 0x20 && a[1] == 0x02 { return isNonPublicV4(Array(a[2..<6])) }      // 2002::/16 6to4
        return false
    }

    static func isNonPublicV4(_ a: [UInt8]) -> Bool {
        switch (a[0], a[1]) {
        case (0, _), (10, _), (127, _): return true                 // this network, private, loopback
        case (100, 64...127): return true                           // carrier-grade NAT
        case (169, 254): return true                                // link-local (cloud metadata)
        case (172, 16...31): return true                            // private
        case (192, 168): return true                                // private
        case (192, 0) where a[2] == 0 || a[2] == 2: return true     // IETF protocol assignments, TEST-NET-1
        case (198, 18...19): return true                            // benchmarking
        case (198, 51) where a[2] == 100: return true               // TEST-NET-2
        case (203, 0) where a[2] == 113: return true                // TEST-NET-3
        case (224...255, _): return true                            // multicast, reserved, broadcast
        default: return false
        }
    }
}
