import Dispatch
import Synchronization

/// A few connections to one database, each with a serial queue of its own that its libpq
/// calls run on: a caller suspends while its body runs there, so a slow query never holds
/// one of Swift's cooperative threads (there are only as many as cores). A caller that
/// finds every connection busy waits its turn, first come first served. Connections open
/// on first use, and again after one breaks.
///
/// Writes of one statement (`write`) that find every connection busy wait together: the
/// next connection to come free takes all of them as one transaction (`PostgresBatch`).
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

    /// A caller waiting for a connection, or a write waiting to go with others.
    private enum Waiting {
        case connection(CheckedContinuation<Slot, Never>)
        case write(PostgresBatch.Write)
    }

    private struct State {
        var idle: [Slot]
        var waiting: [Waiting] = []
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
    public func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
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
    public func transaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await withConnection { connection in try connection.retryingTransaction { try body(connection) } }
    }

    /// Runs `statement` as a transaction of its own, or with other writes waiting when it
    /// comes (see `PostgresBatch`): it commits, or throws its own error, either way.
    /// `key` names what the statement locks (a verification, a number); a batch takes
    /// its statements in the order of their keys. A statement that turns its commit
    /// asynchronous (`set_config('synchronous_commit', 'off', true)`) says so with
    /// `durable: false`: the setting holds for its whole transaction, so it is batched only
    /// with statements that do the same.
    public func write(_ statement: PostgresQuery, key: String, durable: Bool = true) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let write = PostgresBatch.Write(statement: statement, key: key, durable: durable,
                                            continuation: continuation)
            let slot = state.withLock { state -> Slot? in
                if let slot = state.idle.popLast() { return slot }
                state.waiting.append(.write(write))
                return nil
            }
            if let slot { run([write], on: slot) }
        }
    }

    /// Writes waiting for a connection now (for tests).
    var waitingWrites: Int {
        state.withLock { state in state.waiting.count { if case .write = $0 { true } else { false } } }
    }

    private func acquire() async -> Slot {
        if let slot = state.withLock({ $0.idle.popLast() }) { return slot }
        return await withCheckedContinuation { continuation in
            let slot = state.withLock { state -> Slot? in
                if let slot = state.idle.popLast() { return slot }
                state.waiting.append(.connection(continuation))
                return nil
            }
            if let slot { continuation.resume(returning: slot) }
        }
    }

    /// Hands `slot` to the first caller waiting for a connection, or, when a write is
    /// first, to every write waiting as durable as it is (up to a batch's limit), or back
    /// to the idle ones.
    private func release(_ slot: Slot) {
        enum Next { case idle, connection(CheckedContinuation<Slot, Never>), writes([PostgresBatch.Write]) }
        let next = state.withLock { state -> Next in
            guard let first = state.waiting.first else {
                state.idle.append(slot)
                return .idle
            }
            let durable: Bool
            switch first {
            case .connection(let continuation):
                state.waiting.removeFirst()
                return .connection(continuation)
            case .write(let earliest):
                durable = earliest.durable
            }
            var writes: [PostgresBatch.Write] = []
            state.waiting.removeAll { waiting in
                guard case .write(let write) = waiting, write.durable == durable,
                      writes.count < PostgresBatch.limit else {
                    return false
                }
                writes.append(write)
                return true
            }
            return .writes(writes)
        }
        switch next {
        case .idle: break
        case .connection(let continuation): continuation.resume(returning: slot)
        case .writes(let writes): run(writes, on: slot)
        }
    }

    private func run(_ writes: [PostgresBatch.Write], on slot: Slot) {
        slot.queue.async {
            let results = PostgresBatch.run(writes.map { ($0.statement, $0.key) }, on: slot.connection)
            for (write, result) in zip(writes, results) { write.continuation.resume(with: result) }
            self.release(slot)
        }
    }
}
