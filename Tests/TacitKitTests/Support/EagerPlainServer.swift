import Foundation
import Glibc

/// A loopback listener that answers every connection with a plain HTTP response as soon
/// as it accepts it, without reading: what a TLS client meets when it dials a port that
/// speaks only HTTP. The listener closes with `stop()`.
final class EagerPlainServer: @unchecked Sendable {
    // Safe to share: `listener` and `port` are set in init and never change.
    let port: Int
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 8) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread {
            while true {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nplain".utf8)
                _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(fd)
            }
        }
    }

    func stop() {
        // Wakes the accept loop, which then ends.
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
