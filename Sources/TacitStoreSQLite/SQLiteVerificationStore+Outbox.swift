import Foundation
import TacitStore

extension SQLiteVerificationStore {
    public func enqueueOutbox(_ messages: [OutboxMessage]) async throws {
        guard !messages.isEmpty else { return }
        try await database.write { db in try Self.append(messages, db) }
    }

    public func claimOutbox(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxMessage] {
        let nowSeconds = now.timeIntervalSince1970
        let leased = nowSeconds + lease
        return try await database.write { db in
            let rows = try db.query("""
                SELECT * FROM webhook_outbox WHERE state = 'pending' AND next_attempt_at <= \(nowSeconds)
                ORDER BY next_attempt_at LIMIT \(limit)
                """)
            var messages = try rows.map(Self.outboxMessage)
            guard !messages.isEmpty else { return messages }
            let disabled = Set(try db.query("SELECT endpoint FROM webhook_endpoints_disabled")
                .map { try $0.string("endpoint") })
            for index in messages.indices {
                if disabled.contains(messages[index].endpoint) {
                    messages[index].state = .disabled
                    try db.execute("UPDATE webhook_outbox SET state = 'disabled' WHERE id = \(messages[index].id)")
                } else {
                    try db.execute(
                        "UPDATE webhook_outbox SET next_attempt_at = \(leased) WHERE id = \(messages[index].id)")
                }
            }
            return messages
        }
    }

    public func recordOutboxAttempt(id: String, outcome: OutboxOutcome, at: Date) async throws {
        let (state, next): (OutboxState, Double?) = switch outcome {
        case .delivered: (.delivered, nil)
        case .dead: (.dead, nil)
        case .retry(let when): (.pending, when.timeIntervalSince1970)
        }
        try await database.write { db in
            try db.execute("""
                UPDATE webhook_outbox SET attempts = attempts + 1, state = \(state.rawValue),
                    next_attempt_at = COALESCE(\(next), next_attempt_at)
                WHERE id = \(id) AND state = 'pending'
                """)
        }
    }

    public func nextOutboxDue() async throws -> Date? {
        try await database.read { db in
            try db.query("SELECT MIN(next_attempt_at) AS due FROM webhook_outbox WHERE state = 'pending'").first?
                .optionalDouble("due").map(Date.init(timeIntervalSince1970:))
        }
    }

    public func outboxMessage(id: String) async throws -> OutboxMessage? {
        try await database.read { db in
            try db.query("SELECT * FROM webhook_outbox WHERE id = \(id)").first.map(Self.outboxMessage)
        }
    }

    public func outboxMessages(verificationId: String) async throws -> [OutboxMessage] {
        try await database.read { db in
            try db.query("SELECT * FROM webhook_outbox WHERE request_id = \(verificationId) ORDER BY created_at, rowid")
                .map(Self.outboxMessage)
        }
    }

    public func disableWebhookEndpoint(_ endpoint: String, at: Date) async throws {
        try await database.write { db in
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
        try await database.read { db in
            Set(try db.query("SELECT endpoint FROM webhook_endpoints_disabled").map { try $0.string("endpoint") })
        }
    }

    public func rememberCallback(key: String, expiresAt: Date, now: Date) async throws -> Bool {
        let nowSeconds = now.timeIntervalSince1970
        return try await database.write { db in
            try db.execute("DELETE FROM callback_replay WHERE expires_at <= \(nowSeconds)")
            guard try db.query("SELECT key FROM callback_replay WHERE key = \(key)").isEmpty else { return false }
            try db.execute(
                "INSERT INTO callback_replay (key, expires_at) VALUES (\(key), \(expiresAt.timeIntervalSince1970))")
            return true
        }
    }

    static func append(_ outbox: [OutboxMessage], _ db: SQLiteConnection) throws {
        for message in outbox {
            try db.execute("""
                INSERT INTO webhook_outbox (id, endpoint, request_id, type, payload, created_at, attempts,
                                            next_attempt_at, state)
                VALUES (\(message.id), \(message.endpoint), \(message.verificationId), \(message.type),
                        \(message.payload), \(message.createdAt.timeIntervalSince1970), \(message.attempts),
                        \(message.nextAttemptAt.timeIntervalSince1970), \(message.state.rawValue))
                """)
        }
    }

    static func outboxMessage(_ row: Row) throws -> OutboxMessage {
        OutboxMessage(
            id: try row.string("id"), endpoint: try row.string("endpoint"),
            verificationId: try row.string("request_id"),
            type: try row.string("type"), payload: try row.blob("payload"),
            createdAt: Date(timeIntervalSince1970: try row.double("created_at")), attempts: try row.int("attempts"),
            nextAttemptAt: Date(timeIntervalSince1970: try row.double("next_attempt_at")),
            state: OutboxState(rawValue: try row.string("state")) ?? .dead)
    }
}
