import Foundation
import TacitStore

extension PostgresVerificationStore {
    public func idempotencyRecord(key: String) async throws -> IdempotencyRecord? {
        try await read { db in
            try db.query("SELECT * FROM idempotency WHERE key = \(key)").first.map { row in
                IdempotencyRecord(key: try row.string("key"), requestHash: try row.bytes("request_hash"),
                                  status: try row.int("status"),
                                  sealedBody: try row.bytes("body"), createdAt: try row.date("created_at"),
                                  applicationId: try row.string("application_id"))
            }
        }
    }

    public func sweepIdempotency(createdBefore cutoff: Date) async throws -> Int {
        try await deleteInBatches("""
            DELETE FROM idempotency WHERE key IN
                (SELECT key FROM idempotency WHERE created_at < \(cutoff.timeIntervalSince1970)
                 LIMIT \(Self.sweepBatch))
            """)
    }

    public func saveIdempotentResponse(key: String, status: Int, sealedBody: [UInt8]) async throws {
        try await read { db in
            try db.execute("UPDATE idempotency SET status = \(status), body = \(sealedBody) WHERE key = \(key)")
        }
    }

    public func setting(_ name: String) async throws -> [UInt8]? {
        try await read { db in try db.query("SELECT value FROM settings WHERE name = \(name)").first?.bytes("value") }
    }

    /// Instances starting together each try to insert; every one reads back the one value that won.
    public func setSettingIfAbsent(_ name: String, _ value: [UInt8]) async throws -> [UInt8] {
        try await read { db in
            try db.execute(
                "INSERT INTO settings (name, value) VALUES (\(name), \(value)) ON CONFLICT (name) DO NOTHING")
            return try db.query("SELECT value FROM settings WHERE name = \(name)").first?.bytes("value") ?? value
        }
    }

    public func settings(prefix: String) async throws -> [String: [UInt8]] {
        let rows = try await read { db in
            try db.query("SELECT name, value FROM settings WHERE starts_with(name, \(prefix))")
        }
        var settings: [String: [UInt8]] = [:]
        for row in rows { settings[try row.string("name")] = try row.bytes("value") }
        return settings
    }

    public func deleteSetting(_ name: String) async throws {
        try await read { db in try db.execute("DELETE FROM settings WHERE name = \(name)") }
    }
}
