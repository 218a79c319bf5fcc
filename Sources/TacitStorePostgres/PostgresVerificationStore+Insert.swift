import Foundation
import TacitCore
import TacitStore

/// A create's insert: the verification with its events, outbox rows and sends as one
/// statement that a pending verification of the number refuses, and the idempotency key
/// claimed first when there is one.
extension PostgresVerificationStore {
    public func insert(_ verification: Verification, events: [EventDraft], outbox: [OutboxMessage],
                       sends: [QueuedSend], rollups: [RollupDelta], at: Date,
                       idempotency: IdempotencyRecord?) async throws -> [TimelineEvent] {
        let fields = try protection()
        let indexes = try fields.indexes(verification.contact)
        let sealed = try fields.seal(SealedContact.plaintext(phoneNumber: verification.phoneNumber,
                                                             emailAddress: verification.emailAddress))
        var stored = verification
        let recorded = stored.record(events, at: at)
        let record = VerificationRecord.encode(stored)
        // A row indexed under an older key (until resealed) counts as well: the unique
        // index sees only the newest key's index, so the statement checks every one, and
        // the index settles two inserts racing past that check. Only a pending
        // verification can meet another one. The test is in the text or not, rather than a
        // test of a value: with the value folded in, a plan made for each run looked
        // cheaper, and PostgreSQL planned the statement every time.
        let onePending: PostgresQuery = stored.status == .pending
            ? "WHERE NOT EXISTS (\(Self.pending(of: stored.applicationId, under: indexes)))" : ""
        let insert = PostgresQuery.requiringChange("""
            INSERT INTO verifications (id, application_id, face, phone_index, phone_sealed, status, deadline,
                                       created_at, updated_at, finished_at, last_seq, version, record,
                                       region, client_ref)
            SELECT \(stored.id), \(stored.applicationId), \(stored.face), \(indexes[0]), \(sealed),
                   \(stored.status.rawValue), \(stored.deadline?.timeIntervalSince1970)::double precision,
                   \(stored.createdAt.timeIntervalSince1970), \(at.timeIntervalSince1970),
                   \(Self.finishedAt(stored, at: at))::double precision, \(stored.lastSeq), 1, \(record),
                   \(stored.region), \(stored.clientRef)
            \(onePending)
            """, along: Self.inserts(recorded) + Self.inserts(outbox) + Self.inserts(sends)
                   + Self.upserts(rollups, application: stored.applicationId))
        if let idempotency {
            // The claim is a statement of its own, first, in the same round trip: a second
            // request with its key waits there, and finds the key taken, before it could
            // meet the first one's pending number.
            try await write(refusal: Self.insertRefusal) { db in
                try db.queue(Self.claim(idempotency))
                try db.queue(insert)
            }
        } else {
            try await write(insert, locking: indexes[0], refusal: Self.insertRefusal)
        }
        recent.put(stored.id, 1, stored)
        return recorded
    }

    /// The ids of `application`'s pending verifications of a number indexed under any of
    /// `indexes` (one per key of the ring, the newest first). Each index is its own
    /// lookup with both columns of the unique index equal, which every plan answers from
    /// that index. As one `phone_index = ANY(…)`, the prepared statement's generic plan,
    /// made while the table was small, scanned every pending row of the application and
    /// filtered them: each create cost a little more than the one before.
    static func pending(of application: String, under indexes: [String]) -> PostgresQuery {
        PostgresQuery(joining: indexes.map { index in
            let match: PostgresQuery = "application_id = \(application) AND phone_index = \(index)"
            return "SELECT id FROM verifications WHERE \(match) AND status = 'pending'"
        }, separator: " UNION ALL ")
    }

    /// Takes the idempotency key first in the create's transaction: a second request with
    /// the key waits on the row, then finds it taken, whichever instance it reached.
    static func claim(_ idempotency: IdempotencyRecord) -> PostgresQuery {
        """
        INSERT INTO idempotency (key, application_id, request_hash, status, body, created_at)
        VALUES (\(idempotency.key), \(idempotency.applicationId), \(idempotency.requestHash), 0, \([UInt8]()),
                \(idempotency.createdAt.timeIntervalSince1970))
        """
    }

    /// Why an insert was refused: its key taken, or a pending verification of the number
    /// there already (found by the insert's own check, or by the unique index when two
    /// inserts raced past it).
    @Sendable static func insertRefusal(_ error: PostgresError) -> (any Error)? {
        if error.isUniqueViolation && error.constraint == "idempotency_pkey" {
            return StoreError.idempotencyKeyReused
        }
        if error.isNothingChanged
            || error.isUniqueViolation && error.constraint == "verifications_one_pending_per_number" {
            return StoreError.concurrentVerification
        }
        return nil
    }
}
