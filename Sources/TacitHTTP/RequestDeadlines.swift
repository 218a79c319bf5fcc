import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Closes a connection whose request takes longer than `requestDeadline` to arrive.
///
/// libmicrohttpd's own timeout counts idle time only, so a client sending a byte a second
/// keeps its connection for ever. A connection is armed when it is accepted and again after
/// each answer, and disarmed once its request is read; a timer shuts down the socket of any
/// connection still armed past its deadline, and libmicrohttpd, seeing the input end,
/// closes it on its own thread. libmicrohttpd announces a close before it closes the socket,
/// and that announcement and `shutdown(2)` take the same lock: a socket number is never
/// shut down once it may belong to a newer connection.
final class RequestDeadlines: Sendable {
    private struct Entry {
        let socket: Int32
        var deadline: ContinuousClock.Instant?
    }

    private struct Timer: @unchecked Sendable {  // safe: a dispatch source may be cancelled from any thread
        let source: DispatchSourceTimer
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var timer: Timer?
    }

    private let limit: Duration
    private let state = Mutex(State())
    /// Connections closed at their deadline, for tests.
    let closed = Atomic<Int>(0)

    init(limit: Duration) {
        self.limit = limit
    }

    private var enabled: Bool { limit > .zero }

    /// Starts the timer that enforces the deadlines; `stop()` ends it.
    func start() {
        guard enabled else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "tacit.http.deadlines"))
        let tick = Self.tick(for: limit)
        timer.schedule(deadline: .now() + tick, repeating: tick, leeway: .milliseconds(10))
        timer.setEventHandler { [self] in expire() }
        let box = Timer(source: timer)
        state.withLock { $0.timer = box }
        timer.resume()
    }

    func stop() {
        state.withLock { state in
            defer { state.timer = nil }
            return state.timer
        }?.source.cancel()
    }

    /// A quarter of the deadline, between 50 ms and a second: a request is cut off at most
    /// that long after its deadline.
    static func tick(for limit: Duration) -> DispatchTimeInterval {
        let quarter = limit / 4
        let milliseconds = quarter.components.seconds * 1_000 + quarter.components.attoseconds / 1_000_000_000_000_000
        return .milliseconds(Int(min(max(milliseconds, 50), 1_000)))
    }

    /// libmicrohttpd accepted `connection`: its first request's time starts.
    func opened(_ connection: OpaquePointer) {
        guard enabled else { return }
        let socket = cmhd_connection_fd(connection)
        guard socket >= 0 else { return }
        let entry = Entry(socket: socket, deadline: .now + limit)
        state.withLock { $0.entries[Int(bitPattern: connection)] = entry }
    }

    /// libmicrohttpd is about to close `connection`'s socket.
    func closedByServer(_ connection: OpaquePointer) {
        guard enabled else { return }
        _ = state.withLock { $0.entries.removeValue(forKey: Int(bitPattern: connection)) }
    }

    /// The connection answered a request and may read another: that one's time starts.
    func arm(_ connection: OpaquePointer) {
        guard enabled else { return }
        let deadline = ContinuousClock.now + limit
        state.withLock { $0.entries[Int(bitPattern: connection)]?.deadline = deadline }
    }

    /// The connection's request is read; handlers and streams take as long as they take.
    func disarm(_ connection: OpaquePointer) {
        guard enabled else { return }
        state.withLock { $0.entries[Int(bitPattern: connection)]?.deadline = nil }
    }

    /// Shuts down every overdue socket. libmicrohttpd logs each such close itself.
    private func expire() {
        let now = ContinuousClock.now
        state.withLock { state in
            for (key, entry) in state.entries {
                guard let deadline = entry.deadline, deadline <= now else { continue }
                // Counted first, so a client that sees the close finds it counted.
                closed.add(1, ordering: .relaxed)
                shutdown(entry.socket, Int32(SHUT_RDWR))
                state.entries[key]?.deadline = nil
            }
        }
    }
}
