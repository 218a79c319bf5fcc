import Foundation
import TacitCore
import TacitStore

/// Updates are compare-and-set on the row's version: the row is read, `body` runs on the
/// caller's side, and the write lands only if the version is still the one read, in the
/// same transaction as the change's events, outbox rows and sends. Several instances may
/// change one verification at once; of fifty parallel right codes, one finds its version
/// still there and the others read again and see the verification completed.
///
/// After `optimisticAttempts` lost races the change runs on the row under its lock
/// (`SELECT … FOR UPDATE`), so a contended verification still makes progress.
extension PostgresVerificationStore {
    static let optimisticAttempts = 3

    /// A change ready to write, and what the caller gets back.
    struct PreparedChange<T: Sendable>: Sendable {
        let id: String
        let at: Date
        let written: [TimelineEvent]
        let outbox: [OutboxMessage]
        let sends: [QueuedSend]
        let sendsDone: [String]
        let rates: [RateChange]
        let rollups: [RollupDelta]
        let result: StoreUpdateResult<T>
    }

    public func update<T: Sendable>(
        id: String, at: Date, _ body: @escaping @Sendable (inout Verification) throws -> StoreChange<T>
    ) async throws -> StoreUpdateResult<T>? {
        let fields = try protection()
        let scope = StoreScope.application
        for attempt in 0..<Self.optimisticAttempts {
            // The first attempt starts from the state this instance kept, if any, without
            // reading the row; the compare-and-set tells whether it was still current.
            let stored: (version: Int, verification: Verification)
            if attempt == 0, let kept = recent.take(id, visibleTo: scope) {
                stored = (kept.snapshot, kept.verification)
            } else {
                guard let read = try await read({ db in
                    try Self.stored(id, db, fields, lock: false, visibleTo: scope)
                }) else { return nil }
                stored = read
            }
            let change = try Self.prepare(stored.verification, id: id, at: at, body)
            do {
                let statement = Self.statement(change, over: stored.version)
                let lostRace: @Sendable (PostgresError) -> (any Error)? = { $0.isNothingChanged ? LostRace() : nil }
                if change.rates.isEmpty {
                    try await write(statement, locking: id, refusal: lostRace)
                } else {
                    try await write(refusal: lostRace) { db in
                        try db.queue(statement)
                        try Self.apply(change.rates, at: change.at, db)
                    }
                }
                recent.put(id, stored.version + 1, change.result.verification)
                return change.result
            } catch is LostRace {
                continue
            }
        }
        // Under the row's lock the compare-and-set can't fail: if it did, the write fails.
        let written = try await write { db -> (version: Int, change: PreparedChange<T>)? in
            guard let stored = try Self.stored(id, db, fields, lock: true, visibleTo: scope) else { return nil }
            let change = try Self.prepare(stored.verification, id: id, at: at, body)
            try db.queue(Self.statement(change, over: stored.version))
            try Self.apply(change.rates, at: change.at, db)
            return (stored.version + 1, change)
        }
        guard let written else { return nil }
        recent.put(id, written.version, written.change.result.verification)
        return written.change.result
    }

    static func prepare<T: Sendable>(
        _ verification: Verification, id: String, at: Date, _ body: (inout Verification) throws -> StoreChange<T>
    ) throws -> PreparedChange<T> {
        var verification = verification
        let change = try body(&verification)
        let written = verification.record(change.events, at: at)
        return PreparedChange(id: id, at: at, written: written, outbox: change.outbox, sends: change.sends,
                              sendsDone: change.sendsDone, rates: change.rates, rollups: change.rollups,
                              result: StoreUpdateResult(result: change.result, verification: verification,
                                                        events: written))
    }

    /// Another write moved the row's version on first; nothing of this one was written.
    struct LostRace: Error {}

    /// The statement that writes `change` if the row is still at `version`; when another
    /// write got there first it fails with `isNothingChanged` and writes nothing. The
    /// version moves on with every write. The row, the change's events, outbox rows and
    /// sends, and the removal of the send rows it settles are one statement; a change's
    /// counters (`rates`) are statements of their own after it, in its transaction.
    static func statement<T>(_ change: PreparedChange<T>, over version: Int) -> PostgresQuery {
        let v = change.result.verification
        // A list of values, not one array: with an array PostgreSQL planned the statement
        // again on every run, the array's length changing its estimate.
        let sendIds = PostgresQuery(joining: change.sendsDone.map { "\($0)" }, separator: ", ")
        let done: [PostgresQuery] = change.sendsDone.isEmpty ? []
            : ["DELETE FROM send_outbox WHERE id IN (\(sendIds))"]
        return .requiringChange("""
            UPDATE verifications SET status = \(v.status.rawValue), deadline = \(v.deadline?.timeIntervalSince1970),
                finished_at = \(finishedAt(v, at: change.at)), updated_at = \(change.at.timeIntervalSince1970),
                last_seq = \(v.lastSeq), record = \(VerificationRecord.encode(v)), version = version + 1
            WHERE id = \(change.id) AND version = \(version)
            """, along: inserts(change.written) + inserts(change.outbox) + inserts(change.sends) + done
                   + upserts(change.rollups, application: v.applicationId))
    }
}
