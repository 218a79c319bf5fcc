import Foundation
import Glibc
import TacitTesting

/// A loopback listener that answers every connection with a plain HTTP response as soon
/// as it accepts it, without reading: what a TLS client meets when it dials a port that
/// speaks only HTTP. `stop()` ends it.
final class EagerPlainServer: Sendable {
    private let listener: LoopbackListener
    var port: Int { listener.port }

    init() throws {
        listener = try LoopbackListener { fd in
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nplain".utf8)
            _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(fd)
        }
    }

    func stop() { listener.stop() }
}
