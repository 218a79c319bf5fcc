import Foundation
import TacitStore

/// Rate-limit counters in the database, shared by every instance. A hit is one
/// transaction on the counter's row under its lock, so parallel hits through any number
/// of instances can't both take the last place.
extension PostgresVerificationStore: RateLimitStore {
    public func consume(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        try await write { db in try Self.consumeRate(key, limit, at: at, db) }
    }

    public func peek(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        try await window(key).decision(limit, at: at)
    }

    public func hits(_ key: String, _ limit: RateLimit, at: Date) async throws -> Int {
        try await window(key).hits(limit, at: at)
    }

    private func window(_ key: String) async throws -> SlidingWindow {
        try await read { db in
            SlidingWindow(encoded: try db.query("SELECT buckets FROM rate_limits WHERE key = \(key)").first?
                .string("buckets") ?? "")
        }
    }

    public func resetRate(_ key: String) async throws {
        try await read { db in try db.execute("DELETE FROM rate_limits WHERE key = \(key)") }
    }

    public func sweepRates(at: Date) async throws -> Int {
        try await deleteInBatches("""
            DELETE FROM rate_limits WHERE key IN
                (SELECT key FROM rate_limits WHERE expires_at <= \(at.timeIntervalSince1970) LIMIT \(Self.sweepBatch))
            """)
    }

    /// Rows one sweeping statement deletes at most, so no statement holds many row locks.
    public static let sweepBatch = 500

    /// Runs `delete` (at most `sweepBatch` rows each time) until a round deletes fewer.
    func deleteInBatches(_ delete: PostgresQuery) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await read { db in try db.execute(delete) }
            total += deleted
            if deleted < Self.sweepBatch { return total }
        }
    }
}
