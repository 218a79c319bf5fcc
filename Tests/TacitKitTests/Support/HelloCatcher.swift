import Foundation
import Glibc
import TacitTesting
import Synchronization

/// A loopback listener that keeps the first bytes each connection sends, then closes it:
/// a TLS client's ClientHello, whose server_name extension carries the host name in clear.
final class HelloCatcher: Sendable {
    /// What each connection sent first, in order, shared with the accept loop.
    final class Caught: Sendable {
        let hellos = Mutex<[[UInt8]]>([])
    }

    private let listener: LoopbackListener
    private let caught = Caught()
    var port: Int { listener.port }

    init() throws {
        let caught = self.caught
        listener = try LoopbackListener { fd in
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            caught.hellos.withLock { $0.append(Array(buffer.prefix(max(0, count)))) }
            close(fd)
        }
    }

    var hellos: [[UInt8]] { caught.hellos.withLock { $0 } }

    func stop() { listener.stop() }
}
