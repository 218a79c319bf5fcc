import Dispatch
import Synchronization

/// A few connections to one database, each with a serial queue of its own that its libpq
/// calls run on: a caller suspends while its body runs there, so a slow query never holds
/// one of Swift's cooperative threads (there are only as many as cores). A caller that
/// finds every connection busy waits its turn, first come first served. Connections open
/// on first use, and again after one breaks.
public final class PostgresPool: Sendable {
    // @unchecked Sendable: the connection is used only on `queue`, by one body at a time.
    final class Slot: @unchecked Sendable {
        let connection: PostgresConnection
        let queue: DispatchQueue
        init(conninfo: String, index: Int) {
            connection = PostgresConnection(conninfo: conninfo)
            queue = DispatchQueue(label: "tacit.postgres.\(index)")
        }
    }

    private struct State {
        var idle: [Slot]
        var waiters: [CheckedContinuation<Slot, Never>] = []
    }

    private let state: Mutex<State>
    /// How many connections the pool holds at most.
    public let size: Int
    /// Where its connections go (a connection of another kind, the listener's, goes there too).
    public let conninfo: String

    /// `conninfo` is a libpq connection string or `postgres://` URL.
    public init(conninfo: String, size: Int = 4) {
        self.size = max(1, size)
        self.conninfo = conninfo
        state = Mutex(State(idle: (0..<max(1, size)).map { Slot(conninfo: conninfo, index: $0) }))
    }

    /// Runs `body` on a connection of its own, on that connection's queue.
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let slot = await acquire()
        defer { release(slot) }
        return try await withCheckedThrowingContinuation { continuation in
            slot.queue.async {
                continuation.resume(with: Result {
                    try slot.connection.open()
                    return try body(slot.connection)
                })
            }
        }
    }

    /// Runs `body` in a transaction. A deadlock or serialisation failure rolls it back and
    /// runs it again, a few times: `body` must do nothing outside the transaction.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await withConnection { connection in try connection.transaction { try body(connection) } }
            } catch let error as PostgresError where error.isRetryable && attempt < 3 {
                attempt += 1
            }
        }
    }

    private func acquire() async -> Slot {
        if let slot = state.withLock({ $0.idle.popLast() }) { return slot }
        return await withCheckedContinuation { continuation in
            let slot = state.withLock { state -> Slot? in
                if let slot = state.idle.popLast() { return slot }
                state.waiters.append(continuation)
                return nil
            }
            if let slot { continuation.resume(returning: slot) }
        }
    }

    private func release(_ slot: Slot) {
        let waiter = state.withLock { state -> CheckedContinuation<Slot, Never>? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.idle.append(slot)
            return nil
        }
        waiter?.resume(returning: slot)
    }
}
