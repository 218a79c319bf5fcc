import Foundation
import TacitStore

/// Retention's deletes, one transaction per batch. The batch's rows are taken with
/// `FOR UPDATE SKIP LOCKED`, so two instances sweeping at once delete different rows and
/// a verification being changed right now waits for the next sweep.
extension PostgresVerificationStore {
    public func sweepFinished(before cutoff: Date, limit: Int) async throws -> SweptVerifications {
        let (swept, ids) = try await write { db -> (SweptVerifications, [String]) in
            // A verification with a webhook still owed stays until the delivery is settled.
            let ids = try db.query("""
                SELECT id FROM verifications v
                WHERE finished_at < \(cutoff.timeIntervalSince1970)
                    AND NOT EXISTS (SELECT 1 FROM webhook_outbox o
                                    WHERE o.verification_id = v.id AND o.state = 'pending')
                ORDER BY finished_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
                """).map { try $0.string("id") }
            // A refused start's settled webhooks belong to no verification: they go by their own age.
            let unowned = try db.execute("""
                DELETE FROM webhook_outbox WHERE id IN
                    (SELECT id FROM webhook_outbox WHERE verification_id = '' AND state <> 'pending'
                        AND created_at < \(cutoff.timeIntervalSince1970) LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                """)
            guard !ids.isEmpty else { return (SweptVerifications(outbox: unowned), []) }
            let events = try db.execute("DELETE FROM events WHERE verification_id = ANY(\(array: ids))")
            let outbox = try db.execute("DELETE FROM webhook_outbox WHERE verification_id = ANY(\(array: ids))")
            // A finished verification's send is dropped unsent by the worker; one not taken yet goes here.
            try db.execute("DELETE FROM send_outbox WHERE verification_id = ANY(\(array: ids))")
            let verifications = try db.execute("DELETE FROM verifications WHERE id = ANY(\(array: ids))")
            return (SweptVerifications(verifications: verifications, events: events, outbox: outbox + unowned), ids)
        }
        for id in ids { _ = recent.take(id) }
        return swept
    }

    public func sweepCallbackReplays(at now: Date, limit: Int) async throws -> Int {
        try await read { db in
            try db.execute("""
                DELETE FROM callback_replay WHERE key IN
                    (SELECT key FROM callback_replay WHERE expires_at <= \(now.timeIntervalSince1970)
                     LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                """)
        }
    }
}
