import Foundation
import TacitStore

extension SQLiteVerificationStore: RateLimitStore {
    public func consume(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        let start = limit.windowStart(at).timeIntervalSince1970
        let end = limit.windowEnd(at).timeIntervalSince1970
        // One upsert: a row from an older window restarts at 1; a full window is left alone.
        let hits = try await database.write { db in
            try db.query("""
                INSERT INTO rate_limits (key, window_start, hits, expires_at) VALUES (\(key), \(start), 1, \(end))
                ON CONFLICT (key) DO UPDATE SET
                    hits = CASE WHEN window_start = excluded.window_start THEN hits + 1 ELSE 1 END,
                    window_start = excluded.window_start, expires_at = excluded.expires_at
                WHERE window_start <> excluded.window_start OR hits < \(limit.limit)
                RETURNING hits
                """).first?.int("hits")
        }
        guard let hits else { return .limited(retryAfter: limit.retryAfter(at)) }
        return .allowed(hits: hits)
    }

    public func hits(_ key: String, _ limit: RateLimit, at: Date) async throws -> Int {
        let start = limit.windowStart(at).timeIntervalSince1970
        return try await database.read { db in
            try db.query("SELECT hits FROM rate_limits WHERE key = \(key) AND window_start = \(start)").first?.int("hits") ?? 0
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
    static let sweepBatch = 1_000

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
        }
    }
}
