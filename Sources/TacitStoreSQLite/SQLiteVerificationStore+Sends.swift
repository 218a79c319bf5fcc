import Foundation
import TacitStore

/// The send outbox: one row per code message owed, leased by `due_at` as the webhook
/// outbox leases by `next_attempt_at`.
extension SQLiteVerificationStore {
    public func claimSends(now: Date, lease: TimeInterval, limit: Int) async throws -> [QueuedSend] {
        let nowSeconds = now.timeIntervalSince1970
        let leased = nowSeconds + lease
        return try await database.write { db in
            let rows = try db.query(
                "SELECT * FROM send_outbox WHERE due_at <= \(nowSeconds) ORDER BY due_at LIMIT \(limit)")
            let sends = try rows.map(Self.queuedSend)
            for send in sends {
                try db.execute("UPDATE send_outbox SET due_at = \(leased) WHERE id = \(send.id)")
            }
            return sends
        }
    }

    /// Makes every leased row due at `now`, and returns how many were. Only for a server
    /// that holds the file's `SQLiteServingLock`: no other process can hold a lease then, so
    /// each one found is a dead process's, and its send need not wait for the lease to end.
    public func releaseSendLeases(now: Date) async throws -> Int {
        let nowSeconds = now.timeIntervalSince1970
        return try await database.write { db in
            try db.execute("UPDATE send_outbox SET due_at = \(nowSeconds) WHERE due_at > \(nowSeconds)")
            return db.changes
        }
    }

    public func leaseSend(id: String, until: Date) async throws {
        try await database.write { db in
            try db.execute("UPDATE send_outbox SET due_at = \(until.timeIntervalSince1970) WHERE id = \(id)")
        }
    }

    public func dropSends(ids: [String]) async throws {
        guard !ids.isEmpty else { return }
        try await database.write { db in try Self.deleteSends(ids, db) }
    }

    public func nextSendDue() async throws -> Date? {
        try await database.read { db in
            try db.query("SELECT MIN(due_at) AS due FROM send_outbox").first?
                .optionalDouble("due").map(Date.init(timeIntervalSince1970:))
        }
    }

    public func queuedSends(verificationId: String) async throws -> [QueuedSend] {
        try await database.read { db in
            let keys = QueuedSend.keyRange(verificationId)
            return try db.query("""
                SELECT * FROM send_outbox
                WHERE id >= \(keys.from) AND id < \(keys.upTo) AND request_id = \(verificationId)
                ORDER BY created_at, step
                """).map(Self.queuedSend)
        }
    }

    public func sendOutboxGauge(now: Date) async throws -> SendOutboxGauge {
        let nowSeconds = now.timeIntervalSince1970
        return try await database.read { db in
            guard let row = try db.query("""
                SELECT COUNT(*) FILTER (WHERE due_at <= \(nowSeconds)) AS queued,
                       COUNT(*) FILTER (WHERE due_at > \(nowSeconds)) AS leased,
                       MIN(created_at) AS oldest
                FROM send_outbox
                """).first else { return SendOutboxGauge() }
            return SendOutboxGauge(queued: try row.int("queued"), leased: try row.int("leased"),
                                   oldestCreatedAt: try row.optionalDouble("oldest")
                                       .map(Date.init(timeIntervalSince1970:)))
        }
    }

    static func append(_ sends: [QueuedSend], _ db: SQLiteConnection) throws {
        for send in sends {
            try db.execute("""
                INSERT INTO send_outbox (id, request_id, step, channel, sealed_code, created_at, due_at)
                VALUES (\(send.id), \(send.verificationId), \(send.step), \(send.channel), \(send.sealedCode),
                        \(send.createdAt.timeIntervalSince1970), \(send.dueAt.timeIntervalSince1970))
                """)
        }
    }

    static func deleteSends(_ ids: [String], _ db: SQLiteConnection) throws {
        for id in ids { try db.execute("DELETE FROM send_outbox WHERE id = \(id)") }
    }

    static func queuedSend(_ row: Row) throws -> QueuedSend {
        QueuedSend(id: try row.string("id"), verificationId: try row.string("request_id"), step: try row.int("step"),
                   channel: try row.string("channel"), sealedCode: try row.blob("sealed_code"),
                   createdAt: Date(timeIntervalSince1970: try row.double("created_at")),
                   dueAt: Date(timeIntervalSince1970: try row.double("due_at")))
    }
}
