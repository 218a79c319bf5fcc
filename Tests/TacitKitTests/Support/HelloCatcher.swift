import Foundation
import Glibc
import Synchronization

/// A loopback listener that keeps the first bytes each connection sends, then closes it:
/// a TLS client's ClientHello, whose server_name extension carries the host name in clear.
final class HelloCatcher: Sendable {
    let port: Int
    private let listener: Int32
    private let caught = Mutex<[[UInt8]]>([])

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
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// What each connection sent first, in order.
    var hellos: [[UInt8]] { caught.withLock { $0 } }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            caught.withLock { $0.append(Array(buffer.prefix(max(0, count)))) }
            close(fd)
        }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
