import Foundation
import Synchronization
import TacitStore

extension SQLiteVerificationStore {
    public func idempotencyRecord(key: String) async throws -> IdempotencyRecord? {
        let rows = try await database.read { db in try db.query("SELECT * FROM idempotency WHERE key = \(key)") }
        return try rows.first.map { row in
            IdempotencyRecord(key: try row.string("key"), requestHash: try row.blob("request_hash"),
                              status: try row.int("status"), sealedBody: try row.blob("body"),
                              createdAt: Date(timeIntervalSince1970: try row.double("created_at")),
                              applicationId: try row.string("application_id"))
        }
    }

    /// Through the `created_at` index, a batch at a time.
    public func sweepIdempotency(createdBefore cutoff: Date) async throws -> Int {
        try await deleteInBatches("""
            DELETE FROM idempotency WHERE key IN
                (SELECT key FROM idempotency WHERE created_at < \(cutoff.timeIntervalSince1970)
                 LIMIT \(Self.sweepBatch))
            """)
    }

    public func saveIdempotentResponse(key: String, status: Int, sealedBody: [UInt8]) async throws {
        try await database.write { db in
            try db.execute("UPDATE idempotency SET status = \(status), body = \(sealedBody) WHERE key = \(key)")
        }
    }

    public func setting(_ name: String) async throws -> [UInt8]? {
        try await database.read { db in
            try db.query("SELECT value FROM settings WHERE name = \(name)").first?.blob("value")
        }
    }

    public func setSettingIfAbsent(_ name: String, _ value: [UInt8]) async throws -> [UInt8] {
        try await database.write { db in
            try db.execute(
                "INSERT INTO settings (name, value) VALUES (\(name), \(value)) ON CONFLICT (name) DO NOTHING")
            return try db.query("SELECT value FROM settings WHERE name = \(name)").first?.blob("value") ?? value
        }
    }

    public func settings(prefix: String) async throws -> [String: [UInt8]] {
        let rows = try await database.read { db in
            try db.query("SELECT name, value FROM settings WHERE substr(name, 1, \(prefix.utf8.count)) = \(prefix)")
        }
        var settings: [String: [UInt8]] = [:]
        for row in rows { settings[try row.string("name")] = try row.blob("value") }
        return settings
    }

    public func deleteSetting(_ name: String) async throws {
        try await database.write { db in try db.execute("DELETE FROM settings WHERE name = \(name)") }
    }
}

/// The field protection, set once after the store opens (its keys come from the key ring).
final class LazyProtection: Sendable {
    private let value = Mutex<(any FieldProtection)?>(nil)

    func set(_ fields: any FieldProtection) { value.withLock { $0 = fields } }

    func get() throws -> any FieldProtection {
        guard let fields = value.withLock({ $0 }) else {
            throw StoreError.backend("field protection is not configured")
        }
        return fields
    }
}
