/// Something a transaction's writes add to, written once in that transaction just before
/// it commits: many writes that each add a little to the same rows (counters) pay for one
/// statement per transaction, and a group commit's writes share it.
///
/// What a write adds stays with its savepoint: it joins the enclosing transaction's when
/// the savepoint is released and is dropped when it rolls back, so what a failed write
/// added is never written. Reads inside the transaction don't see what is still held.
public protocol CommitAccumulator: AnyObject {
    /// An empty one.
    init()
    /// Takes in what `released`, one of the same kind from a savepoint just released, holds.
    func absorb(_ released: Self)
    /// Writes what it holds on `connection`, inside the transaction about to commit.
    func flush(_ connection: SQLiteConnection) throws
}

extension CommitAccumulator {
    /// Takes in `released` when it is of this kind; the connection keeps one of each kind per level.
    func absorb(any released: any CommitAccumulator) {
        if let released = released as? Self { absorb(released) }
    }
}

extension SQLiteConnection {
    /// The accumulators of one transaction level (the transaction, or one of its savepoints),
    /// in the order first added to, so they are flushed in a stable order.
    struct AccumulatorLevel {
        var held: [any CommitAccumulator] = []

        mutating func instance<A: CommitAccumulator>(of kind: A.Type) -> A {
            if let found = held.first(where: { $0 is A }) as? A { return found }
            let created = A()
            held.append(created)
            return created
        }

        mutating func absorb(_ released: AccumulatorLevel) {
            for accumulator in released.held {
                if let index = held.firstIndex(where: { type(of: $0) == type(of: accumulator) }) {
                    held[index].absorb(any: accumulator)
                } else {
                    held.append(accumulator)
                }
            }
        }
    }

    /// Adds to this transaction level's accumulator of kind `A` through `body`. Outside a
    /// transaction this connection opened (autocommit, or a raw `BEGIN`), it is written at once,
    /// which keeps it with whatever else that statement or transaction writes.
    public func accumulate<A: CommitAccumulator>(_ kind: A.Type, _ body: (A) throws -> Void) throws {
        guard !accumulatorLevels.isEmpty else {
            let alone = A()
            try body(alone)
            try alone.flush(self)
            return
        }
        try body(accumulatorLevels[accumulatorLevels.count - 1].instance(of: kind))
    }

    /// Opens a transaction with `BEGIN IMMEDIATE`, taking the write lock up front so a
    /// read-then-write can't fail half-way with `SQLITE_BUSY`.
    public func begin() throws(SQLiteError) {
        try control("BEGIN IMMEDIATE")
        accumulatorLevels = [AccumulatorLevel()]
    }

    /// Writes what the transaction accumulated, then commits it. When either fails the
    /// transaction is still open: roll it back with `rollBackTransaction()`.
    public func commit() throws {
        let level = accumulatorLevels.first ?? AccumulatorLevel()
        accumulatorLevels = []
        for accumulator in level.held { try accumulator.flush(self) }
        try control("COMMIT")
    }

    /// Rolls back the open transaction, if any, with what it accumulated.
    public func rollBackTransaction() {
        accumulatorLevels = []
        // A failed rollback leaves nothing more to do: the first error is the one to report.
        if isInTransaction { try? executeScript("ROLLBACK") }
    }

    /// A savepoint opened: what is accumulated from now on is its own until it ends.
    func savepointOpened() {
        if !accumulatorLevels.isEmpty { accumulatorLevels.append(AccumulatorLevel()) }
    }

    /// The innermost savepoint released: what it accumulated joins the level around it.
    func savepointReleased() {
        guard accumulatorLevels.count > 1 else { return }
        let released = accumulatorLevels.removeLast()
        accumulatorLevels[accumulatorLevels.count - 1].absorb(released)
    }

    /// The innermost savepoint rolled back: what it accumulated is dropped.
    func savepointRolledBack() {
        if accumulatorLevels.count > 1 { accumulatorLevels.removeLast() }
    }
}
