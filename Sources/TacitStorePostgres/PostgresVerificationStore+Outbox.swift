import Foundation
import TacitStore

/// The webhook outbox and the callback replay cache. A claim takes due rows with
/// `FOR UPDATE SKIP LOCKED` and leases them in the same statement, so two instances
/// claiming at once each get rows the other doesn't. The same statement settles the rows
/// of endpoints disabled through any instance as `disabled`, from the table every
/// instance reads, so no instance delivers to an endpoint another one saw answer 410.
extension PostgresVerificationStore {
    /// The insert rings the other instances' doorbells through the outbox's trigger, as a
    /// verification's rows do.
    public func enqueueOutbox(_ messages: [OutboxMessage]) async throws {
        guard !messages.isEmpty else { return }
        try await write { db in
            for insert in Self.inserts(messages) { _ = try db.execute(insert) }
        }
    }

    public func claimOutbox(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxMessage] {
        let nowSeconds = now.timeIntervalSince1970
        let rows = try await read { db in
            try db.query("""
                WITH due AS (
                    SELECT o.id, o.next_attempt_at, d.endpoint IS NOT NULL AS gone
                    FROM webhook_outbox o LEFT JOIN webhook_endpoints_disabled d ON d.endpoint = o.endpoint
                    WHERE o.state = 'pending' AND o.next_attempt_at <= \(nowSeconds)
                    ORDER BY o.next_attempt_at, o.position LIMIT \(limit) FOR UPDATE OF o SKIP LOCKED
                )
                UPDATE webhook_outbox o
                SET next_attempt_at = CASE WHEN due.gone THEN o.next_attempt_at ELSE \(nowSeconds + lease) END,
                    state = CASE WHEN due.gone THEN 'disabled' ELSE o.state END
                FROM due WHERE o.id = due.id
                RETURNING o.*, due.next_attempt_at AS claimed_due
                """)
        }
        // The message as it was due, as the SQLite store returns it; the lease is the store's.
        let claimed = try rows.map { row in
            var message = try Self.outboxMessage(row)
            message.nextAttemptAt = try row.date("claimed_due")
            return (message, try row.int("position"))
        }
        return claimed.sorted { ($0.0.nextAttemptAt, $0.1) < ($1.0.nextAttemptAt, $1.1) }.map(\.0)
    }

    public func recordOutboxAttempt(id: String, outcome: OutboxOutcome, at: Date) async throws {
        let (state, next): (OutboxState, Double?) = switch outcome {
        case .delivered: (.delivered, nil)
        case .dead: (.dead, nil)
        case .retry(let when): (.pending, when.timeIntervalSince1970)
        }
        try await read { db in
            try db.execute("""
                UPDATE webhook_outbox SET attempts = attempts + 1, state = \(state.rawValue),
                    next_attempt_at = COALESCE(\(next)::double precision, next_attempt_at)
                WHERE id = \(id) AND state = 'pending'
                """)
        }
    }

    public func nextOutboxDue() async throws -> Date? {
        try await read { db in
            try db.query("SELECT min(next_attempt_at) AS due FROM webhook_outbox WHERE state = 'pending'").first?
                .optionalDate("due")
        }
    }

    public func outboxMessage(id: String) async throws -> OutboxMessage? {
        try await read { db in
            try db.query("SELECT * FROM webhook_outbox WHERE id = \(id)").first.map(Self.outboxMessage)
        }
    }

    public func outboxMessages(verificationId: String) async throws -> [OutboxMessage] {
        try await read { db in
            try db.query(
                "SELECT * FROM webhook_outbox WHERE verification_id = \(verificationId) ORDER BY created_at, position")
                .map(Self.outboxMessage)
        }
    }

    public func disableWebhookEndpoint(_ endpoint: String, at: Date) async throws {
        try await write { db in
            try db.execute("""
                INSERT INTO webhook_endpoints_disabled (endpoint, disabled_at)
                VALUES (\(endpoint), \(at.timeIntervalSince1970))
                ON CONFLICT (endpoint) DO NOTHING
                """)
            try db.execute(
                "UPDATE webhook_outbox SET state = 'disabled' WHERE endpoint = \(endpoint) AND state = 'pending'")
        }
    }

    public func disabledWebhookEndpoints() async throws -> Set<String> {
        try await read { db in
            Set(try db.query("SELECT endpoint FROM webhook_endpoints_disabled").map { try $0.string("endpoint") })
        }
    }

    /// One upsert: a new key is inserted, an expired one takes the new window, and an
    /// unexpired one is left alone and returns no row. Two instances receiving the same
    /// callback at once can't both see it as new.
    public func rememberCallback(key: String, expiresAt: Date, now: Date) async throws -> Bool {
        try await read { db in
            try !db.query("""
                INSERT INTO callback_replay (key, expires_at) VALUES (\(key), \(expiresAt.timeIntervalSince1970))
                ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at
                    WHERE callback_replay.expires_at <= \(now.timeIntervalSince1970)
                RETURNING key
                """).isEmpty
        }
    }

    static func inserts(_ outbox: [OutboxMessage]) -> [PostgresQuery] {
        outbox.map { message in
            """
            INSERT INTO webhook_outbox (id, endpoint, verification_id, type, payload, created_at, attempts,
                                        next_attempt_at, state)
            VALUES (\(message.id), \(message.endpoint), \(message.verificationId), \(message.type),
                    \(message.payload), \(message.createdAt.timeIntervalSince1970), \(message.attempts),
                    \(message.nextAttemptAt.timeIntervalSince1970), \(message.state.rawValue))
            """
        }
    }

    static func outboxMessage(_ row: PostgresRow) throws -> OutboxMessage {
        OutboxMessage(
            id: try row.string("id"), endpoint: try row.string("endpoint"),
            verificationId: try row.string("verification_id"),
            type: try row.string("type"), payload: try row.bytes("payload"), createdAt: try row.date("created_at"),
            attempts: try row.int("attempts"), nextAttemptAt: try row.date("next_attempt_at"),
            state: OutboxState(rawValue: try row.string("state")) ?? .dead)
    }
}
