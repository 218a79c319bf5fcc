extension SQLiteConnection {
    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// The outermost call uses `BEGIN IMMEDIATE` (see `begin()`). A nested call becomes a
    /// savepoint, so an inner failure undoes only the inner work, and drops what it
    /// accumulated (``CommitAccumulator``).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        let savepoint = isInTransaction ? "tacit_savepoint_\(savepointDepth)" : nil
        if let savepoint {
            try control("SAVEPOINT \(savepoint)")
            savepointOpened()
        } else {
            try begin()
        }
        savepointDepth += savepoint == nil ? 0 : 1
        defer { savepointDepth -= savepoint == nil ? 0 : 1 }
        do {
            let result = try body()
            if let savepoint {
                try control("RELEASE \(savepoint)")
                savepointReleased()
            } else {
                try commit()
            }
            return result
        } catch {
            rollBack(savepoint)
            throw error
        }
    }

    private func rollBack(_ savepoint: String?) {
        // A failed rollback leaves nothing more to do: the first error is the one to report.
        if let savepoint {
            savepointRolledBack()
            try? executeScript("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
        } else {
            rollBackTransaction()
        }
    }
}
