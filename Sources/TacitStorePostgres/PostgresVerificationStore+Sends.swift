import Foundation
import TacitStore

/// The send outbox, leased by `due_at` and claimed with `FOR UPDATE SKIP LOCKED` as the
/// webhook outbox is: a row one instance's worker holds is not taken by another's.
extension PostgresVerificationStore {
    public func claimSends(now: Date, lease: TimeInterval, limit: Int) async throws -> [QueuedSend] {
        let nowSeconds = now.timeIntervalSince1970
        let rows = try await read { db in
            try db.query("""
                WITH due AS (
                    SELECT id, due_at FROM send_outbox WHERE due_at <= \(nowSeconds)
                    ORDER BY due_at, position LIMIT \(limit) FOR UPDATE SKIP LOCKED
                )
                UPDATE send_outbox s SET due_at = \(nowSeconds + lease) FROM due WHERE s.id = due.id
                RETURNING s.*, due.due_at AS claimed_due
                """)
        }
        let claimed = try rows.map { row in
            var send = try Self.queuedSend(row)
            send.dueAt = try row.date("claimed_due")
            return (send, try row.int("position"))
        }
        return claimed.sorted { ($0.0.dueAt, $0.1) < ($1.0.dueAt, $1.1) }.map(\.0)
    }

    public func leaseSend(id: String, until: Date) async throws {
        try await read { db in
            try db.execute("UPDATE send_outbox SET due_at = \(until.timeIntervalSince1970) WHERE id = \(id)")
        }
    }

    public func dropSends(ids: [String]) async throws {
        guard !ids.isEmpty else { return }
        try await read { db in try db.execute("DELETE FROM send_outbox WHERE id = ANY(\(array: ids))") }
    }

    public func nextSendDue() async throws -> Date? {
        try await read { db in try db.query("SELECT min(due_at) AS due FROM send_outbox").first?.optionalDate("due") }
    }

    public func queuedSends(verificationId: String) async throws -> [QueuedSend] {
        try await read { db in
            try db.query(
                "SELECT * FROM send_outbox WHERE verification_id = \(verificationId) ORDER BY created_at, position")
                .map(Self.queuedSend)
        }
    }

    public func sendOutboxGauge(now: Date) async throws -> SendOutboxGauge {
        let nowSeconds = now.timeIntervalSince1970
        return try await read { db in
            guard let row = try db.query("""
                SELECT count(*) FILTER (WHERE due_at <= \(nowSeconds)) AS queued,
                       count(*) FILTER (WHERE due_at > \(nowSeconds)) AS leased,
                       min(created_at) AS oldest
                FROM send_outbox
                """).first else { return SendOutboxGauge() }
            return SendOutboxGauge(queued: try row.int("queued"), leased: try row.int("leased"),
                                   oldestCreatedAt: try row.optionalDate("oldest"))
        }
    }

    static func inserts(_ sends: [QueuedSend]) -> [PostgresQuery] {
        sends.map { send in
            """
            INSERT INTO send_outbox (id, verification_id, step, channel, sealed_code, created_at, due_at)
            VALUES (\(send.id), \(send.verificationId), \(send.step), \(send.channel), \(send.sealedCode),
                    \(send.createdAt.timeIntervalSince1970), \(send.dueAt.timeIntervalSince1970))
            """
        }
    }

    static func queuedSend(_ row: PostgresRow) throws -> QueuedSend {
        QueuedSend(id: try row.string("id"), verificationId: try row.string("verification_id"),
                   step: try row.int("step"),
                   channel: try row.string("channel"), sealedCode: try row.bytes("sealed_code"),
                   createdAt: try row.date("created_at"), dueAt: try row.date("due_at"))
    }
}
