extension SQLiteConnection {
    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// The outermost call uses `BEGIN IMMEDIATE`, taking the write lock up front so
    /// a read-then-write can't fail half-way with `SQLITE_BUSY`. A nested call
    /// becomes a savepoint, so an inner failure undoes only the inner work.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        let savepoint = isInTransaction ? "tacit_savepoint_\(savepointDepth)" : nil
        try control(savepoint.map { "SAVEPOINT \($0)" } ?? "BEGIN IMMEDIATE")
        savepointDepth += savepoint == nil ? 0 : 1
        defer { savepointDepth -= savepoint == nil ? 0 : 1 }
        do {
            let result = try body()
            try control(savepoint.map { "RELEASE \($0)" } ?? "COMMIT")
            return result
        } catch {
            rollBack(savepoint)
            throw error
        }
    }

    private func rollBack(_ savepoint: String?) {
        // A failed rollback leaves nothing more to do: the first error is the one to report.
        if let savepoint {
            try? executeScript("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
        } else if isInTransaction {
            try? executeScript("ROLLBACK")
        }
    }
}
