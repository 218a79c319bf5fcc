import Dispatch
import Synchronization

/// A database file with one writer connection and a few reader connections, for use
/// from async code.
///
/// Writes are serialised on the writer's own queue, so a read-modify-write inside one
/// `write` closure never loses an update, and each closure runs in a transaction of its
/// own: its statements land together or not at all. SQLite calls block, and Swift's
/// cooperative pool has only as many threads as cores, so a write hops to the queue and
/// its caller suspends.
///
/// Writes that queue up while the writer is busy are committed together (group commit):
/// each runs in its own savepoint inside one transaction, so one write's failure undoes
/// only that write, and every caller resumes only after the shared COMMIT. Under load this
/// writes each hot page to the WAL once per batch instead of once per write.
///
/// Reads run on the caller's thread, on the first free reader connection: nearly every read
/// is a short B-tree lookup that never waits for the writer (in WAL mode a reader sees the
/// last committed state), and a hop to another thread and back would cost more than it.
// @unchecked Sendable: the writer connection is only touched from the writer's serial
// queue; each reader only under its slot's lock.
public final class SQLiteDatabase: @unchecked Sendable {
    /// The database file.
    public let path: String
    private let writer: SQLiteConnection
    let readers: [ReaderSlot]
    private let writerQueue = DispatchQueue(label: "tacit.sqlite.writer")
    private let pending = Mutex(PendingWrites())
    /// Checkpoints run on their own connection and queue: a checkpoint copies WAL pages
    /// into the file and ends in an fsync, which on the writer's thread would stall
    /// every write queued behind it. PASSIVE checkpoints never block the writer.
    private let checkpointer: SQLiteConnection
    private let checkpointQueue = DispatchQueue(label: "tacit.sqlite.checkpoint")
    private let checkpointState = Mutex((batchesSince: 0, running: false))
    /// Batches committed between checkpoints. Rarer checkpoints copy hot pages fewer times,
    /// but each then writes and syncs more at once, and that disk traffic slows the writer's
    /// own writes: at 128 the create p99 at half load rose from about 14 to 19 ms, for no throughput.
    static let checkpointEvery = 32
    /// The most writes one group commit takes.
    static let maxBatch = 64
    /// Reader connections: as many as reads that may run at once without waiting.
    static let readerCount = 2

    /// A write: runs its body in a savepoint and returns how to resume its caller once committed.
    private typealias Job = @Sendable (SQLiteConnection) -> (@Sendable () -> Void)

    private struct PendingWrites {
        var jobs: [Job] = []
        /// Set while a drain is queued or running on the writer's queue.
        var draining = false
    }

    /// Opens (creating if missing) the file at `path`. `path` must be a file:
    /// `:memory:` would give each connection a different database.
    public init(path: String, options: SQLiteOptions = SQLiteOptions()) throws {
        self.path = path
        var readOptions = options
        readOptions.readOnly = true
        // The writer opens first: it switches the file to WAL for the readers.
        writer = try SQLiteConnection(path: path, options: options)
        // The background checkpointer does the copying; the writer checkpoints itself only
        // past 64 MB of WAL, a bound on the file (and on recovery after a crash) for when
        // the checkpointer can't keep up. The file is cut back to 64 MB afterwards.
        try writer.executeScript("PRAGMA wal_autocheckpoint = 16384; PRAGMA journal_size_limit = 67108864")
        readers = try (0..<Self.readerCount).map { index in
            try ReaderSlot(eager: index == 0) { try SQLiteConnection(path: path, options: readOptions) }
        }
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

    /// Runs `body` on the writer connection, after every earlier write, as one transaction:
    /// when it throws, nothing it wrote stays.
    public func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let job: Job = { connection in
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
        while let batch = nextBatch() {
            commit(batch)
            committedBatch()
        }
    }

    /// Takes up to `maxBatch` queued writes, or ends the drain when none are left.
    private func nextBatch() -> [Job]? {
        pending.withLock { state -> [Job]? in
            guard !state.jobs.isEmpty else {
                state.draining = false
                return nil
            }
            let taken = Array(state.jobs.prefix(Self.maxBatch))
            state.jobs.removeFirst(taken.count)
            return taken
        }
    }

    /// One transaction around the batch; callers resume after COMMIT. What the batch's
    /// writes accumulated (``CommitAccumulator``) is written just before it, once for all
    /// of them. If that or the COMMIT fails, every write of the batch is undone and each
    /// runs again alone.
    private func commit(_ batch: [Job]) {
        if batch.count == 1 {
            batch[0](writer)()
            return
        }
        do {
            try writer.begin()
        } catch {
            batch.forEach { $0(writer)() }
            return
        }
        let resumes = batch.map { $0(writer) }
        do {
            try writer.commit()
            resumes.forEach { $0() }
        } catch {
            writer.rollBackTransaction()
            // The batch is undone: run each write again on its own, so each caller gets its own outcome.
            batch.forEach { $0(writer)() }
        }
    }

    /// Applies `migrator`'s pending migrations on the writer; returns their names.
    @discardableResult
    public func migrate(_ migrator: Migrator) async throws -> [String] {
        try await write { try migrator.migrate($0) }
    }

    /// Closes every connection once the writes already queued are done; later calls throw.
    public func close() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            writerQueue.async {
                self.closeConnections()
                done.resume()
            }
        }
    }

    private func closeConnections() {
        writer.close()
        readers.forEach { $0.close() }
        checkpointQueue.sync { checkpointer.close() }
    }
}
