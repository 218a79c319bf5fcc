import Foundation
import Glibc
import Synchronization

/// Holds one `LISTEN` connection for as long as `run` runs, on a thread of its own that
/// waits on the connection's socket with `poll()`: waiting for notifications blocks, so it
/// never borrows one of Swift's cooperative threads (there are only as many as cores) or a
/// pool connection. A connection that breaks (the server restarted, the backend was
/// ended) is opened again at once, then after waits that double from `minimumDelay` up to
/// `maximumDelay` while the server can't be reached.
final class PostgresListener: Sendable {
    enum Event: Sendable, Equatable {
        /// Listening, the first time or again after a break: notifications sent while it
        /// wasn't were lost.
        case listening(backendPID: Int32)
        case notification(String)
    }

    let conninfo: String
    let channelQuery: String
    let minimumDelay: TimeInterval
    let maximumDelay: TimeInterval

    init(conninfo: String, channelQuery: String, minimumDelay: TimeInterval = 0.05, maximumDelay: TimeInterval = 5) {
        self.conninfo = conninfo
        self.channelQuery = channelQuery
        self.minimumDelay = minimumDelay
        self.maximumDelay = maximumDelay
    }

    /// Reports to `report`, on the listener's thread, until the calling task is cancelled.
    func run(_ report: @escaping @Sendable (Event) -> Void) async {
        guard let stop = StopSignal() else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let thread = Thread { [self] in
                    listen(until: stop, report)
                    continuation.resume()
                }
                thread.name = "tacit.postgres.listen"
                thread.start()
            }
        } onCancel: {
            stop.signal()
        }
    }

    /// Connects, listens, reconnects; returns once `stop` is signalled.
    private func listen(until stop: StopSignal, _ report: (Event) -> Void) {
        var delay = minimumDelay
        while !stop.isSignalled {
            guard let connection = try? PostgresListenConnection(conninfo: conninfo, channelQuery: channelQuery) else {
                if stop.wait(seconds: delay) { return }
                delay = min(delay * 2, maximumDelay)
                continue
            }
            delay = minimumDelay
            report(.listening(backendPID: connection.backendPID))
            guard pump(connection, until: stop, report) else { return }
        }
    }

    /// Hands on notifications until the connection breaks (true) or `stop` is signalled (false).
    private func pump(_ connection: PostgresListenConnection, until stop: StopSignal,
                      _ report: (Event) -> Void) -> Bool {
        var fds = [pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: stop.fd, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return true
            }
            if fds[1].revents != 0 { return false }
            guard fds[0].revents != 0 else { continue }
            guard let payloads = try? connection.receive() else { return true }
            for payload in payloads { report(.notification(payload)) }
        }
    }
}

/// A pipe whose read end becomes readable once `signal` is called: what wakes the
/// listener's `poll()` the moment its task is cancelled.
// @unchecked Sendable: the descriptors are fixed at init; writes and polls are thread-safe.
final class StopSignal: @unchecked Sendable {
    let fd: Int32
    private let writeEnd: Int32

    init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        fd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(fd)
        close(writeEnd)
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    var isSignalled: Bool { wait(seconds: 0) }

    /// Waits up to `seconds`; true when signalled (then or before).
    func wait(seconds: TimeInterval) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(seconds * 1000))
        return ready > 0
    }
}
