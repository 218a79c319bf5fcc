/// Writes of one statement each, committed together: one BEGIN, the statements, one
/// COMMIT, in one round trip, so several creates share a commit's WAL flush, a round trip
/// and a thread hop where each paid its own. A pool's writes wait to go together only
/// when every connection is busy, so a write on an idle pool goes at once, alone.
///
/// Each write commits or fails as it would alone: when the batch fails for a statement's
/// error (a refusal, a lost race, a deadlock), PostgreSQL rolled all of it back, and each
/// statement runs again alone, for its own answer. When the connection breaks instead, the
/// commit may have happened, so nothing runs again: every write gets the failure, as a
/// write alone would.
///
/// The statements go in the order of their keys (what each locks: a verification, a
/// number): two batches that change the same two rows lock them in the same order, and
/// never wait on each other in a circle.
enum PostgresBatch {
    /// Writes one batch takes at most.
    static let limit = 32

    struct Write: Sendable {
        let statement: PostgresQuery
        let key: String
        /// Whether its commit waits for the WAL flush; a batch holds writes of one kind.
        let durable: Bool
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// Each statement's outcome, in the order given.
    static func run(_ writes: [(statement: PostgresQuery, key: String)],
                    on connection: PostgresConnection) -> [Result<Void, any Error>] {
        if writes.count > 1 {
            do {
                try connection.open()
                try connection.transaction {
                    for write in writes.sorted(by: { $0.key < $1.key }) { try connection.queue(write.statement) }
                }
                return writes.map { _ in .success(()) }
            } catch let error as PostgresError where error.isConnectionFailure {
                return writes.map { _ in .failure(error) }
            } catch {
                // The batch rolled back: each statement on its own, below.
            }
        }
        return writes.map { write in
            Result {
                try connection.open()
                try connection.retryingTransaction { try connection.queue(write.statement) }
            }
        }
    }
}
