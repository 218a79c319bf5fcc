import Foundation
#if canImport(Glibc)
import Glibc
#endif

struct RawSocketError: Error, CustomStringConvertible {
    let description: String
}

/// A blocking POSIX TCP client, for what URLSession cannot express: choosing the source
/// address, sending odd methods or chunked uploads, and reading a stream incrementally.
/// Reads time out after 5 seconds so a broken server fails a test instead of hanging it.
final class RawConnection: @unchecked Sendable {  // safe: each test uses a connection from one thread at a time
    let fd: Int32
    private var received: [UInt8] = []
    /// Set by `abort`, which closes the socket itself.
    private var isClosed = false

    init(port: Int, host: String = "127.0.0.1", source: String? = nil) throws {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawSocketError(description: "socket failed") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // From here the instance is whole, so a throw still runs `deinit`, which closes the
        // socket: closing it here as well would close whatever the number is given to next.
        if let source {
            var local = RawConnection.address(source, port: 0)
            guard RawConnection.withSockaddr(&local, { bind(fd, $0, $1) }) == 0 else {
                throw RawSocketError(description: "bind to \(source) failed")
            }
        }
        var remote = RawConnection.address(host, port: port)
        guard RawConnection.withSockaddr(&remote, { connect(fd, $0, $1) }) == 0 else {
            throw RawSocketError(description: "connect failed")
        }
    }

    deinit { if !isClosed { Glibc.close(fd) } }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw RawSocketError(description: "send failed") }
            offset += sent
        }
    }

    /// Reads until the received text contains `marker`; returns everything received so far.
    func read(until marker: String) throws -> String {
        while !text.contains(marker) {
            guard try readSome() else { throw RawSocketError(description: "closed before marker; got \(text.count) chars") }
        }
        return text
    }

    /// Reads until the server closes the connection.
    func readToEnd() throws -> String {
        while try readSome() {}
        return text
    }

    var text: String { String(decoding: received, as: UTF8.self) }

    /// Makes the coming close send a reset, as a client that vanishes does, so the
    /// server's next write fails at once instead of after a round trip.
    func abortOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Vanishes as a client that drops off does, with a reset, and returns once the kernel
    /// has delivered the reset to the server's end of the connection (its socket has left
    /// the TCP table). Only then is the server's next write certain to fail: a write that
    /// beats the reset goes into the socket's buffer as if the client were still there, and
    /// a server waiting for its next write to notice would wait for ever. Under load the
    /// kernel can hand the reset to a thread of its own that runs later than the close.
    func abort(serverPort: Int) async throws {
        let connection = (local: serverPort, remote: localPort)
        abortOnClose()
        isClosed = true
        Glibc.close(fd)
        let gone = await yieldUntil(within: .seconds(20)) {
            // Gives the core to the kernel's thread that delivers the reset, when that is what runs late.
            sched_yield()
            return !Self.tcpTableHolds(connection)
        }
        guard gone else { throw RawSocketError(description: "the reset never reached the server's socket") }
    }

    /// The port the kernel gave this end.
    var localPort: Int {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        // sin_port and sin6_port sit at the same offset, in network order.
        return withUnsafeBytes(of: &address) { Int(UInt16($0[2]) << 8 | UInt16($0[3])) }
    }

    /// Whether the host's TCP tables (IPv4 and IPv6) hold a socket with these ports.
    private static func tcpTableHolds(_ ports: (local: Int, remote: Int)) -> Bool {
        let local = String(format: ":%04X", ports.local), remote = String(format: ":%04X", ports.remote)
        return ["/proc/net/tcp", "/proc/net/tcp6"].contains { path in
            guard let table = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
            // Each line after the header: "sl local_address rem_address st …", addresses as HEXIP:HEXPORT.
            return table.split(separator: "\n").dropFirst().contains { line in
                let columns = line.split(separator: " ", maxSplits: 3)
                return columns.count > 2 && columns[1].hasSuffix(local) && columns[2].hasSuffix(remote)
            }
        }
    }

    private func readSome() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw RawSocketError(description: "recv failed (errno \(errno))") }
        received += chunk[0..<count]
        return count > 0
    }

    private static func address(_ host: String, port: Int) -> sockaddr_storage {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            if host.contains(":") {
                let v6 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                v6.pointee.sin6_family = sa_family_t(AF_INET6)
                v6.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
                inet_pton(AF_INET6, host, &v6.pointee.sin6_addr)
            } else {
                let v4 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                v4.pointee.sin_family = sa_family_t(AF_INET)
                v4.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
                inet_pton(AF_INET, host, &v4.pointee.sin_addr)
            }
        }
        return storage
    }

    private static func withSockaddr(_ address: inout sockaddr_storage, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        let length = Int32(address.ss_family) == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }
}
