import Foundation
import TacitStore

extension SQLiteVerificationStore: RateLimitStore {
    public func consume(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        // Read, count and write back in one write: the single writer makes it atomic, so
        // parallel hits can't both take the last place.
        try await database.write { db in try Self.consumeRate(key, limit, at: at, db) }
    }

    public func peek(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        try await window(key).decision(limit, at: at)
    }

    public func hits(_ key: String, _ limit: RateLimit, at: Date) async throws -> Int {
        try await window(key).hits(limit, at: at)
    }

    private func window(_ key: String) async throws -> SlidingWindow {
        try await database.read { db in
            SlidingWindow(encoded: try db.query("SELECT buckets FROM rate_limits WHERE key = \(key)").first?
                .string("buckets") ?? "")
        }
    }

    public func resetRate(_ key: String) async throws {
        try await database.write { db in try db.execute("DELETE FROM rate_limits WHERE key = \(key)") }
    }

    public func sweepRates(at: Date) async throws -> Int {
        try await deleteInBatches("""
            DELETE FROM rate_limits WHERE key IN
                (SELECT key FROM rate_limits WHERE expires_at <= \(at.timeIntervalSince1970) LIMIT \(Self.sweepBatch))
            """)
    }

    /// Rows one sweeping write deletes at most, so no single write holds the writer long.
    public static let sweepBatch = 500

    /// Runs `delete`, which removes at most `sweepBatch` rows, until a round removes fewer;
    /// returns how many rows went in all.
    func deleteInBatches(_ delete: SQL) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await database.write { db -> Int in
                try db.execute(delete)
                return db.changes
            }
            total += deleted
            if deleted < Self.sweepBatch { return total }
            // Writes queued meanwhile go before the next batch; so do the tasks waiting to queue one.
            await Task.yield()
        }
    }
}
