import Dispatch
import Synchronization

/// A database file with one writer connection and one reader connection, each
/// confined to its own serial queue, for use from async code.
///
/// SQLite calls block, and Swift's cooperative pool has only as many threads as
/// cores, so they must not run there: each call hops to the connection's queue
/// and the caller's task suspends until it finishes. In WAL mode the reader
/// sees the last committed state and never waits for the writer.
///
/// Writes are serialised, so a read-modify-write inside one `write` closure
/// never loses an update; use ``SQLiteConnection/transaction(_:)`` inside it
/// to make several statements atomic.
///
/// Writes that queue up while the writer is busy are committed together (group
/// commit): each runs in its own savepoint inside one transaction, so one write's
/// failure undoes only that write, and every caller resumes only after the shared
/// COMMIT. Under load this writes each hot page to the WAL once per batch instead
/// of once per write.
// @unchecked Sendable: each connection is only touched from its own serial queue.
public final class SQLiteDatabase: @unchecked Sendable {
    /// The database file.
    public let path: String
    private let writer: SQLiteConnection
    private let reader: SQLiteConnection
    private let writerQueue = DispatchQueue(label: "tacit.sqlite.writer")
    private let readerQueue = DispatchQueue(label: "tacit.sqlite.reader")
    private let pending = Mutex(PendingWrites())
    /// Checkpoints run on their own connection and queue: a checkpoint copies WAL pages
    /// into the file and ends in an fsync, which on the writer's thread would stall
    /// every write queued behind it. PASSIVE checkpoints never block the writer.
    private let checkpointer: SQLiteConnection
    private let checkpointQueue = DispatchQueue(label: "tacit.sqlite.checkpoint")
    private let checkpointState = Mutex((batchesSince: 0, running: false))
    /// Batches committed between checkpoints.
    static let checkpointEvery = 32
    /// The most writes one group commit takes.
    static let maxBatch = 64

    private struct PendingWrites {
        var jobs: [@Sendable (SQLiteConnection) -> (@Sendable () -> Void)] = []
        var draining = false
    }

    /// Opens (creating if missing) the file at `path`. `path` must be a file:
    /// `:memory:` would give the two connections two different databases.
    public init(path: String, options: SQLiteOptions = SQLiteOptions()) throws {
        self.path = path
        var readOptions = options
        readOptions.readOnly = true
        // The writer opens first: it switches the file to WAL for the reader.
        writer = try SQLiteConnection(path: path, options: options)
        // The background checkpointer does the copying; the writer checkpoints itself only
        // past 64 MB of WAL, a bound on the file (and on recovery after a crash) for when
        // the checkpointer can't keep up. The file is cut back to 64 MB afterwards.
        try writer.executeScript("PRAGMA wal_autocheckpoint = 16384; PRAGMA journal_size_limit = 67108864")
        reader = try SQLiteConnection(path: path, options: readOptions)
        checkpointer = try SQLiteConnection(path: path, options: options)
    }

    /// Counts a committed batch and, every `checkpointEvery`, starts a passive
    /// checkpoint unless one is still running.
    private func committedBatch() {
        let start = checkpointState.withLock { state -> Bool in
            state.batchesSince += 1
            guard state.batchesSince >= Self.checkpointEvery, !state.running else { return false }
            state = (0, true)
            return true
        }
        guard start else { return }
        checkpointQueue.async {
            // A failed checkpoint is retried with the next one; the WAL stays correct meanwhile.
            try? self.checkpointer.executeScript("PRAGMA wal_checkpoint(PASSIVE)")
            self.checkpointState.withLock { $0.running = false }
        }
    }

    /// Runs `body` on the writer connection, after every earlier write.
    public func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            // A job runs `body` in its savepoint and returns how to resume its caller once committed.
            let job: @Sendable (SQLiteConnection) -> (@Sendable () -> Void) = { connection in
                let result = Result { try connection.transaction { try body(connection) } }
                return { continuation.resume(with: result) }
            }
            let startDrain = pending.withLock { state -> Bool in
                state.jobs.append(job)
                defer { state.draining = true }
                return !state.draining
            }
            if startDrain { writerQueue.async { self.drain() } }
        }
    }

    /// Runs queued writes in batches until none are left.
    private func drain() {
        while true {
            let batch = pending.withLock { state -> [@Sendable (SQLiteConnection) -> (@Sendable () -> Void)] in
                let taken = Array(state.jobs.prefix(Self.maxBatch))
                state.jobs.removeFirst(taken.count)
                if taken.isEmpty { state.draining = false }
                return taken
            }
            if batch.isEmpty { return }
            commit(batch)
            committedBatch()
        }
    }

    /// One transaction around the batch; callers resume after COMMIT. If the COMMIT
    /// itself fails, every write of the batch is undone and each caller gets the error.
    private func commit(_ batch: [@Sendable (SQLiteConnection) -> (@Sendable () -> Void)]) {
        if batch.count == 1 {
            batch[0](writer)()
            return
        }
        do {
            try writer.control("BEGIN IMMEDIATE")
        } catch {
            batch.forEach { $0(writer)() }
            return
        }
        let resumes = batch.map { $0(writer) }
        do {
            try writer.control("COMMIT")
            resumes.forEach { $0() }
        } catch {
            try? writer.executeScript("ROLLBACK")
            // The batch is undone: run each write again on its own, so each caller gets its own outcome.
            batch.forEach { $0(writer)() }
        }
    }

    /// Runs `body` on the read-only connection; writes in it fail.
    public func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await run(body, onReader: true)
    }

    /// Applies `migrator`'s pending migrations on the writer; returns their names.
    @discardableResult
    public func migrate(_ migrator: Migrator) async throws -> [String] {
        try await write { try migrator.migrate($0) }
    }

    /// Closes both connections once their queued work is done; later calls throw.
    public func close() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            writerQueue.async {
                self.writer.close()
                self.readerQueue.async {
                    self.reader.close()
                    self.checkpointQueue.async {
                        self.checkpointer.close()
                        done.resume()
                    }
                }
            }
        }
    }

    private func run<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws -> T, onReader: Bool
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            (onReader ? readerQueue : writerQueue).async {
                let connection = onReader ? self.reader : self.writer
                continuation.resume(with: Result { try body(connection) })
            }
        }
    }
}
