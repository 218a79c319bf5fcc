#if os(Linux)
import Foundation
import Glibc

/// A resolved socket address (IPv4 or IPv6) as raw `sockaddr` bytes.
struct SocketAddress: Sendable {
    let family: Int32
    private let bytes: [UInt8]

    /// Resolves a host (name or literal, without brackets) and port.
    /// `numericOnly` refuses names, for source addresses.
    static func resolve(host: String, port: Int, numericOnly: Bool = false) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = numericOnly ? AI_NUMERICHOST | AI_NUMERICSERV : AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw CellularTransportError(.connectionFailed, "cannot resolve the host")
        }
        defer { freeaddrinfo(list) }
        var out: [SocketAddress] = []
        for info in sequence(first: first, next: { $0.pointee.ai_next }) {
            let info = info.pointee
            guard let addr = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 else { continue }
            let raw = UnsafeRawBufferPointer(start: addr, count: Int(info.ai_addrlen))
            out.append(SocketAddress(family: info.ai_family, bytes: Array(raw)))
        }
        return out
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        bytes.withUnsafeBytes { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
    }
}
#endif
