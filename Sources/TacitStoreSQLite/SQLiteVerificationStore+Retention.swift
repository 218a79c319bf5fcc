import Foundation
import TacitCore
import TacitStore

/// Retention's deletes. Everything a verification owns hangs off its row: the number's
/// index and sealed copy, the record with its code hash, the deadline its timer is armed
/// from, and the newest of its event groups, each linked back to the one before. Its outbox
/// rows are found through their own index by verification. Idempotency records carry no
/// verification id; each is made with its verification, so the housekeeper's age sweep,
/// never shorter than the retention, removes them first.
extension SQLiteVerificationStore {
    public func sweepFinished(before cutoff: Date, limit: Int) async throws -> SweptVerifications {
        let deleted = try await database.write { db -> (ids: [String], swept: SweptVerifications) in
            // A verification with a webhook still owed stays until the delivery is settled,
            // so the dispatcher never finds a message whose verification is gone.
            let rows = try db.query("""
                SELECT id, last_seq FROM verifications
                WHERE finished_at < \(cutoff.timeIntervalSince1970)
                    AND NOT EXISTS (SELECT 1 FROM webhook_outbox o
                                    WHERE o.request_id = verifications.id AND o.state = 'pending')
                ORDER BY finished_at LIMIT \(limit)
                """)
            // A refused start's settled webhooks belong to no verification: they go by their own age.
            try db.execute("""
                DELETE FROM webhook_outbox WHERE id IN (
                    SELECT id FROM webhook_outbox WHERE request_id = '' AND state != 'pending'
                        AND created_at < \(cutoff.timeIntervalSince1970) LIMIT \(limit))
                """)
            let unowned = db.changes
            guard !rows.isEmpty else { return ([], SweptVerifications(outbox: unowned)) }
            let ids = try rows.map { try $0.string("id") }
            // One statement text whatever the batch's size: the ids travel as one JSON array.
            let batch = String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
            try db.execute("""
                WITH RECURSIVE chain(id) AS (
                    SELECT last_group FROM verifications
                        WHERE id IN (SELECT value FROM json_each(\(batch))) AND last_group IS NOT NULL
                    UNION ALL
                    SELECT g.previous FROM chain JOIN event_groups g ON g.id = chain.id WHERE g.previous IS NOT NULL
                )
                DELETE FROM event_groups WHERE id IN (SELECT id FROM chain)
                """)
            try db.execute("DELETE FROM webhook_outbox WHERE request_id IN (SELECT value FROM json_each(\(batch)))")
            let outbox = db.changes
            // A finished verification's send is dropped unsent by the worker; one not taken yet goes here.
            // Each verification's sends are a range of the outbox's keys (`QueuedSend.keyRange`).
            let ranges = ids.map { id in QueuedSend.keyRange(id) }.map { range in [range.from, range.upTo] }
            let keyRanges = String(decoding: try JSONEncoder().encode(ranges), as: UTF8.self)
            try db.execute("""
                DELETE FROM send_outbox WHERE id IN (
                    SELECT s.id FROM json_each(\(keyRanges)) r JOIN send_outbox s
                    ON s.id >= r.value ->> 0 AND s.id < r.value ->> 1
                    WHERE s.request_id IN (SELECT value FROM json_each(\(batch))))
                """)
            try db.execute("DELETE FROM verifications WHERE id IN (SELECT value FROM json_each(\(batch)))")
            // Sequence numbers run from 1 without gaps, so the last one is the event count.
            let events = try rows.reduce(0) { $0 + (try $1.int("last_seq")) }
            return (ids, SweptVerifications(verifications: db.changes, events: events, outbox: outbox + unowned))
        }
        // A kept state of a deleted verification must not answer for it any more.
        for id in deleted.ids { _ = recent.take(id) }
        return deleted.swept
    }

    public func sweepCallbackReplays(at now: Date, limit: Int) async throws -> Int {
        try await database.write { db -> Int in
            try db.execute("""
                DELETE FROM callback_replay WHERE key IN
                    (SELECT key FROM callback_replay WHERE expires_at <= \(now.timeIntervalSince1970) LIMIT \(limit))
                """)
            return db.changes
        }
    }

    /// When `verification`, as written at `at`, finished; nil while it is pending.
    static func finishedAt(_ verification: Verification, at: Date) -> Double? {
        verification.status == .pending ? nil : (verification.endedAt ?? at).timeIntervalSince1970
    }
}
