import Foundation
import TacitTesting
#if canImport(Glibc)
import Glibc
#endif

/// A bounded slowloris: connections from one source address, each holding a request open
/// by sending its body a byte at a time. Every socket closes when this is dropped.
final class SlowClients: @unchecked Sendable {  // safe: used by one thread at a time, handed over by offThePool
    /// Connections the server took: it answered their `Expect: 100-continue`.
    private(set) var held: [RawConnection] = []
    /// Connections the server closed at once.
    private(set) var refused = 0
    /// Connections the server left unanswered (not accepted yet) after `settle`.
    private(set) var waiting = 0

    /// Opens `count` connections from `source`, each declaring a body it never finishes,
    /// then waits up to `settle` for the server to take or close each of them.
    init(count: Int, port: Int, source: String, settle: Duration = .seconds(3)) throws {
        let head = "POST /slow HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n"
        var pending: [RawConnection] = []
        for _ in 0..<count {
            let connection = try RawConnection(port: port, source: source)
            if (try? connection.send(head)) != nil { pending.append(connection) } else { refused += 1 }
        }
        let clock = ContinuousClock()
        let start = clock.now
        var answers: [Int32: [UInt8]] = [:]
        while !pending.isEmpty, clock.now - start < settle {
            var descriptors = pending.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), 100) > 0 else { continue }
            pending = pending.filter { connection in
                guard descriptors.first(where: { $0.fd == connection.fd })?.revents ?? 0 != 0 else { return true }
                var chunk = [UInt8](repeating: 0, count: 512)
                let read = chunk.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
                guard read > 0 else { refused += 1; return false }
                answers[connection.fd, default: []] += chunk[0..<read]
                guard String(decoding: answers[connection.fd] ?? [], as: UTF8.self).contains("100 Continue") else { return true }
                held.append(connection)
                return false
            }
        }
        waiting = pending.count
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
