import Foundation
import TacitCore
import TacitStore

/// Updates are worked out before the writer's turn. The row is read on the caller's
/// thread, and `body`, the events' JSON and the record's encoding run there. The writer
/// then only confirms that the row is still exactly as read, and writes.
///
/// The writer is the store's one serial resource, so the state machine, code hashing,
/// unsealing and JSON no longer queue behind each other there. The confirmation and the
/// write are one transaction, so a check is still checked and consumed atomically. Of
/// fifty parallel right codes, one finds the row as it read it; the others find it
/// changed, read it again, and see the verification completed.
///
/// The first attempt starts from the state this store last read or wrote for the id, when
/// it still has it (a check's security gate has just read it; a create's delivery follows
/// the create), so it reads nothing. That state is only a starting point: the writer
/// confirms it against the row like any other, and when `body` refuses it, the refusal
/// is checked on a fresh read.
///
/// A row that changes between the read and the write is read again. After
/// `optimisticAttempts` such races, the change runs inside the writer on the row as it
/// stands, so a contended verification still makes progress.
extension SQLiteVerificationStore {
    static let optimisticAttempts = 2

    /// The columns a change is worked out from: equal snapshots are the same state.
    /// `lastGroup` is where the next group of events links back to; it changes only
    /// with `lastSeq`, so the confirmation need not compare it.
    struct Snapshot: Equatable, Sendable {
        let status: String
        let deadline: Double?
        let lastSeq: Int
        let record: [UInt8]
        let lastGroup: Int?

        init(_ row: Row) throws {
            status = try row.string("status")
            deadline = try row.optionalDouble("deadline")
            lastSeq = try row.int("last_seq")
            record = try row.blob("record")
            lastGroup = try row.optionalInt("last_group")
        }

        /// The columns as `verification` is written, its record encoded as `record`.
        init(_ verification: Verification, record: [UInt8], lastGroup: Int?) {
            status = verification.status.rawValue
            deadline = verification.deadline?.timeIntervalSince1970
            lastSeq = verification.lastSeq
            self.record = record
            self.lastGroup = lastGroup
        }
    }

    /// The row changed between the read and the write: the write is undone and redone.
    struct RowChanged: Error {}

    /// A change ready to write: its columns, its events' JSON and what the caller gets back.
    struct PreparedChange<T: Sendable>: Sendable {
        let id: String
        let assignments: SQL
        /// The record as the change leaves it, for the snapshot kept after the write.
        let record: [UInt8]
        let events: RenderedEvents?
        let outbox: [OutboxMessage]
        let sends: [QueuedSend]
        let sendsDone: [String]
        let rates: [RateChange]
        let rollups: [RollupDelta]
        let at: Date
        let result: StoreUpdateResult<T>
    }

    public func update<T: Sendable>(
        id: String, at: Date, _ body: @escaping @Sendable (inout Verification) throws -> StoreChange<T>
    ) async throws -> StoreUpdateResult<T>? {
        let fields = try protection.get()
        // Read once here: the writer's closure below runs on its own thread, outside this task.
        let scope = StoreScope.application
        for attempt in 0..<Self.optimisticAttempts {
            let known = attempt == 0 ? recent.take(id, visibleTo: scope) : nil
            let snapshot: Snapshot, verification: Verification
            if let known {
                (snapshot, verification) = known
            } else {
                guard let stored = try await database.read({ db in
                    try Self.stored(id, db, fields, visibleTo: scope)
                }) else { return nil }
                (snapshot, verification) = stored
            }
            let change: PreparedChange<T>
            do {
                change = try Self.prepare(verification, id: id, at: at, body)
            } catch {
                // A refusal stands only on a state just read: a kept one may be out of date.
                if known != nil { continue }
                throw error
            }
            do {
                let after = try await database.write { db in try Self.write(change, db, over: snapshot) }
                recent.put(id, after, change.result.verification)
                return change.result
            } catch is RowChanged {
                continue
            }
        }
        return try await database.write { db in
            guard let stored = try Self.stored(id, db, fields, visibleTo: scope) else { return nil }
            let change = try Self.prepare(stored.verification, id: id, at: at, body)
            _ = try Self.write(change, db, over: stored.snapshot)
            return change.result
        }
    }

    /// Runs `body` on `verification` and renders everything the write needs.
    static func prepare<T: Sendable>(
        _ verification: Verification, id: String, at: Date, _ body: (inout Verification) throws -> StoreChange<T>
    ) throws -> PreparedChange<T> {
        var verification = verification
        let before = (verification.status, verification.deadline)
        let change = try body(&verification)
        let written = verification.record(change.events, at: at)
        // The partial index of pending deadlines reads `status` and `deadline`: naming them
        // only when they change leaves its pages out of the commit.
        let indexed: SQL = before == (verification.status, verification.deadline) ? "" : """
            status = \(verification.status.rawValue), deadline = \(verification.deadline?.timeIntervalSince1970),
            finished_at = \(finishedAt(verification, at: at)),
            """
        let record = VerificationRecord.encode(verification)
        let assignments: SQL = """
            \(indexed) updated_at = \(at.timeIntervalSince1970), last_seq = \(verification.lastSeq), record = \(record)
            """
        return PreparedChange(id: id, assignments: assignments, record: record,
                              events: RenderedEvents(written), outbox: change.outbox, sends: change.sends,
                              sendsDone: change.sendsDone, rates: change.rates, rollups: change.rollups, at: at,
                              result: StoreUpdateResult(result: change.result, verification: verification,
                                                        events: written))
    }

    /// Writes `change` when the row still holds `snapshot`, and returns the row's new
    /// snapshot. The UPDATE itself carries the comparison, so the confirmation costs no
    /// read of its own; when the row has changed or is gone it throws `RowChanged`, which
    /// undoes the events already inserted.
    static func write<T>(_ change: PreparedChange<T>, _ db: SQLiteConnection,
                         over snapshot: Snapshot) throws -> Snapshot {
        let lastGroup = try append(change.events, after: snapshot.lastGroup, db)
        try db.execute("""
            UPDATE verifications SET \(change.assignments), last_group = \(lastGroup)
            WHERE id = \(change.id) AND status = \(snapshot.status) AND deadline IS \(snapshot.deadline)
                AND last_seq = \(snapshot.lastSeq) AND record = \(snapshot.record)
            """)
        guard db.changes == 1 else { throw RowChanged() }
        try append(change.outbox, db)
        try append(change.sends, db)
        try deleteSends(change.sendsDone, db)
        try apply(change.rates, at: change.at, db)
        try apply(change.rollups, application: change.result.verification.applicationId, db)
        return Snapshot(change.result.verification, record: change.record, lastGroup: lastGroup)
    }
}
