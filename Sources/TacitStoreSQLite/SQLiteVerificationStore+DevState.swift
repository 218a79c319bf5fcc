import Foundation
import TacitStore

/// `--dev`'s provider state in the file, so it outlives a restart. Each call is one
/// statement or one turn of the writer: a claim reads and marks its session in that
/// turn, so two claims can't both find it unused.
extension SQLiteVerificationStore: DevStateStore {
    public func openGatewaySession(id: String, _ session: DevGatewaySession) async throws {
        let sealed = try protection.get().seal(Array(session.number.utf8))
        try await database.write { db in
            try db.execute("""
                INSERT INTO dev_gateway_sessions (id, number_sealed, redirect_uri, expires_at, used)
                VALUES (\(id), \(sealed), \(session.redirectURI), \(session.expiresAt.timeIntervalSince1970),
                        \(session.used))
                """)
        }
    }

    public func claimGatewaySession(
        id: String, now: Date, accepting: @escaping @Sendable (DevGatewaySession) -> Bool
    ) async throws -> DevGatewayClaim {
        let fields = try protection.get()
        return try await database.write { db in
            guard let row = try db.query("SELECT * FROM dev_gateway_sessions WHERE id = \(id)").first else {
                return .unknown
            }
            let session = DevGatewaySession(
                number: String(decoding: try fields.open(try row.blob("number_sealed")), as: UTF8.self),
                redirectURI: try row.optionalString("redirect_uri"),
                expiresAt: Date(timeIntervalSince1970: try row.double("expires_at")), used: try row.bool("used"))
            guard accepting(session) else { return .refused }
            if session.used { return .replayed(session) }
            try db.execute("UPDATE dev_gateway_sessions SET used = 1 WHERE id = \(id)")
            return session.expiresAt > now ? .fresh(session) : .expired(session)
        }
    }

    public func sweepGatewaySessions(expiredBefore cutoff: Date) async throws -> Int {
        try await database.write { db in
            let count = try db.query(
                "SELECT count(*) AS n FROM dev_gateway_sessions WHERE expires_at < \(cutoff.timeIntervalSince1970)")
                .first?.int("n") ?? 0
            try db.execute("DELETE FROM dev_gateway_sessions WHERE expires_at < \(cutoff.timeIntervalSince1970)")
            return count
        }
    }

    public func appendInboxMessage(_ message: DevInboxMessage, to number: String, keeping: Int) async throws {
        let fields = try protection.get()
        let index = try fields.index(number)
        let sealed = try fields.seal(Array(message.body.utf8))
        try await database.write { db in
            try db.execute("""
                INSERT INTO dev_inbox (number_index, channel, body_sealed, at)
                VALUES (\(index), \(message.channel), \(sealed), \(message.at))
                """)
            try db.execute("""
                DELETE FROM dev_inbox WHERE number_index = \(index) AND seq NOT IN
                    (SELECT seq FROM dev_inbox WHERE number_index = \(index) ORDER BY seq DESC LIMIT \(keeping))
                """)
        }
    }

    public func inboxMessages(for number: String) async throws -> [DevInboxMessage] {
        let fields = try protection.get()
        // Under every key of the ring: a message indexed before a rotation still shows (an
        // index can't be redone by reseal, which never holds the number).
        let indexes = try fields.indexes(number)
        let rows = try await database.read { db in
            try db.query("""
                SELECT channel, body_sealed, at FROM dev_inbox WHERE number_index IN (\(list: indexes)) ORDER BY seq
                """)
        }
        return try rows.map { row in
            DevInboxMessage(channel: try row.string("channel"),
                            body: String(decoding: try fields.open(try row.blob("body_sealed")), as: UTF8.self),
                            at: try row.string("at"))
        }
    }

    public func devSecret(_ name: String, proposed: [UInt8]) async throws -> [UInt8] {
        let fields = try protection.get()
        let sealed = try fields.seal(proposed)
        return try await database.write { db in
            try db.execute(
                "INSERT INTO dev_secrets (name, value) VALUES (\(name), \(sealed)) ON CONFLICT (name) DO NOTHING")
            let stored = try db.query("SELECT value FROM dev_secrets WHERE name = \(name)").first?.blob("value")
                ?? sealed
            // Sealed under a key the ring no longer holds: the dev secret is replaced, as a
            // dev server's operator state is disposable.
            guard let opened = try? fields.open(stored) else {
                try db.execute("UPDATE dev_secrets SET value = \(sealed) WHERE name = \(name)")
                return proposed
            }
            return opened
        }
    }
}
