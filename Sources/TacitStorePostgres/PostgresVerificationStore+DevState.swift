import Foundation
import TacitStore

/// `--dev`'s provider state in the shared database, so every instance sees the same
/// gateway sessions, inboxes, operator key (docs/postgres.md#--dev-on-several-instances). A claim locks its session's
/// row (`FOR UPDATE`) for its transaction: of claims racing through several instances,
/// the first marks it used and the others then read it used.
extension PostgresVerificationStore: DevStateStore {
    public func openGatewaySession(id: String, _ session: DevGatewaySession) async throws {
        let sealed = try protection().seal(Array(session.number.utf8))
        try await read { db in
            _ = try db.execute("""
                INSERT INTO dev_gateway_sessions (id, number_sealed, redirect_uri, expires_at, used)
                VALUES (\(id), \(sealed), \(session.redirectURI), \(session.expiresAt.timeIntervalSince1970),
                        \(session.used))
                """)
        }
    }

    public func claimGatewaySession(
        id: String, now: Date, accepting: @escaping @Sendable (DevGatewaySession) -> Bool
    ) async throws -> DevGatewayClaim {
        let fields = try protection()
        return try await write { db in
            guard let row = try db.query("SELECT * FROM dev_gateway_sessions WHERE id = \(id) FOR UPDATE").first else {
                return .unknown
            }
            let session = DevGatewaySession(
                number: String(decoding: try fields.open(try row.bytes("number_sealed")), as: UTF8.self),
                redirectURI: try row.optionalString("redirect_uri"),
                expiresAt: try row.date("expires_at"), used: try row.bool("used"))
            guard accepting(session) else { return .refused }
            if session.used { return .replayed(session) }
            _ = try db.execute("UPDATE dev_gateway_sessions SET used = true WHERE id = \(id)")
            return session.expiresAt > now ? .fresh(session) : .expired(session)
        }
    }

    public func sweepGatewaySessions(expiredBefore cutoff: Date) async throws -> Int {
        try await read { db in
            try db.execute("DELETE FROM dev_gateway_sessions WHERE expires_at < \(cutoff.timeIntervalSince1970)")
        }
    }

    public func appendInboxMessage(_ message: DevInboxMessage, to number: String, keeping: Int) async throws {
        let fields = try protection()
        let index = try fields.index(number)
        let sealed = try fields.seal(Array(message.body.utf8))
        // A handset's inbox is development state: it is visible to every instance as soon
        // as it commits, and not worth a wait for the WAL flush (PostgreSQL's asynchronous
        // commit), which every code sent in --dev would otherwise pay on top of the send's own.
        // One statement, so a transaction of its own, with no BEGIN, SET and COMMIT around
        // it: the insert takes its one row from the setting, so the setting is made (for
        // this transaction only) before the commit reads it. The trim runs on the
        // statement's snapshot, without the new message, so it keeps one fewer of the old.
        // The setting holds for a whole batch of writes (`PostgresPool.write`), so the
        // message is batched only with others like it, never with a create.
        try await write("""
                WITH setting AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true)),
                added AS (
                    INSERT INTO dev_inbox (number_index, channel, body_sealed, at)
                    SELECT \(index), \(message.channel), \(sealed), \(message.at) FROM setting
                )
                DELETE FROM dev_inbox WHERE number_index = \(index) AND seq < coalesce(
                    (SELECT min(seq) FROM (SELECT seq FROM dev_inbox WHERE number_index = \(index) ORDER BY seq DESC
                                           LIMIT \(max(keeping - 1, 0))) AS kept),
                    9223372036854775807)
                """, locking: index, durable: false)
    }

    public func inboxMessages(for number: String) async throws -> [DevInboxMessage] {
        let fields = try protection()
        // Under every key of the ring: a message indexed before a rotation still shows (an
        // index can't be redone by reseal, which never holds the number).
        let indexes = try fields.indexes(number)
        let rows = try await read { db in
            try db.query("""
                SELECT channel, body_sealed, at FROM dev_inbox WHERE number_index = ANY(\(array: indexes)) ORDER BY seq
                """)
        }
        return try rows.map { row in
            DevInboxMessage(channel: try row.string("channel"),
                            body: String(decoding: try fields.open(try row.bytes("body_sealed")), as: UTF8.self),
                            at: try row.string("at"))
        }
    }

    /// Instances starting together each propose a secret; every one reads back the one that won.
    public func devSecret(_ name: String, proposed: [UInt8]) async throws -> [UInt8] {
        let fields = try protection()
        let sealed = try fields.seal(proposed)
        return try await write { db in
            _ = try db.execute(
                "INSERT INTO dev_secrets (name, value) VALUES (\(name), \(sealed)) ON CONFLICT (name) DO NOTHING")
            let stored = try db.query("SELECT value FROM dev_secrets WHERE name = \(name) FOR UPDATE").first?
                .bytes("value") ?? sealed
            // Sealed under a key the ring no longer holds: replaced, as a dev server's
            // operator state is disposable.
            guard let opened = try? fields.open(stored) else {
                _ = try db.execute("UPDATE dev_secrets SET value = \(sealed) WHERE name = \(name)")
                return proposed
            }
            return opened
        }
    }
}
