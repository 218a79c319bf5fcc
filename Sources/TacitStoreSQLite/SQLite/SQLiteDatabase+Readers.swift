import Synchronization

extension SQLiteDatabase {
    /// A reader connection, opened on first use, and the lock that confines it to one
    /// thread at a time. Only the first is opened up front: a database that never has two
    /// reads at once keeps one reader's file descriptors, not one per slot.
    final class ReaderSlot: @unchecked Sendable {
        private let lock = Mutex(())
        private let open: () throws -> SQLiteConnection
        private var connection: SQLiteConnection?
        private var closed = false

        init(eager: Bool, open: @escaping () throws -> SQLiteConnection) throws {
            self.open = open
            if eager { connection = try open() }
        }

        /// Runs `body` when the slot is free (or, with `wait`, once it is). nil when the slot
        /// is busy, or when its connection can't be opened now: the read goes elsewhere.
        func run<T: Sendable>(wait: Bool, _ body: (SQLiteConnection) throws -> T) -> Result<T, any Error>? {
            if wait { return lock.withLock { _ in attempt(body) } }
            return lock.withLockIfAvailable { _ in attempt(body) } ?? nil
        }

        /// Called with the lock held.
        private func attempt<T: Sendable>(_ body: (SQLiteConnection) throws -> T) -> Result<T, any Error>? {
            if closed { return .failure(SQLiteError.closed) }
            if connection == nil { connection = try? open() }
            guard let connection else { return nil }
            return Result { try body(connection) }
        }

        func close() {
            lock.withLock { _ in
                closed = true
                connection?.close()
                connection = nil
            }
        }
    }

    /// Runs `body` on a read-only connection, on the caller's thread; writes in it fail.
    public func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        for slot in readers {
            if let result = slot.run(wait: false, body) { return try result.get() }
        }
        // The first slot's connection is opened up front, so waiting for it always runs `body`.
        guard let result = readers[0].run(wait: true, body) else { throw SQLiteError.closed }
        return try result.get()
    }
}
