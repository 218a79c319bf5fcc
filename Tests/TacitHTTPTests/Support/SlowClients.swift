import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bounded slowloris: connections from one source address, each holding a request open
/// by sending its body a byte at a time. Every socket closes when this is dropped.
final class SlowClients: @unchecked Sendable {  // safe: used by one thread at a time, handed over by offPool
    /// Connections the server took: it answered their `Expect: 100-continue`.
    private(set) var held: [RawConnection] = []
    /// Connections the server closed at once.
    private(set) var refused = 0

    /// Opens `count` connections from `source`, each declaring a body it never finishes.
    init(count: Int, port: Int, source: String) throws {
        let head = "POST /slow HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n"
        for _ in 0..<count {
            let connection = try RawConnection(port: port, source: source)
            do {
                try connection.send(head)
                _ = try connection.read(until: "100 Continue")
                held.append(connection)
            } catch {
                refused += 1
            }
        }
    }

    /// Sends one more body byte on every held connection.
    func trickle() {
        for connection in held { try? connection.send("a") }
    }
}

extension RawConnection {
    /// Sends `bytes` one at a time, `interval` apart, until the server closes the
    /// connection or `limit` passes; returns how long the server kept it open, or nil
    /// when it was still open at `limit`.
    func trickle(_ bytes: [UInt8], every interval: Duration, for limit: Duration) -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        var next = 0
        while clock.now - start < limit {
            if closedByPeer(within: interval) { return clock.now - start }
            if next < bytes.count {
                guard (try? send([bytes[next]])) != nil else { return clock.now - start }
                next += 1
            }
        }
        return nil
    }

    /// Waits up to `interval` for the peer to close (or, unexpectedly, answer); true when it did.
    private func closedByPeer(within interval: Duration) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(interval.components.seconds * 1_000 + interval.components.attoseconds / 1_000_000_000_000_000)
        return poll(&descriptor, 1, milliseconds) > 0
    }
}
