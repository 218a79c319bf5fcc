import Foundation
import TacitStore

extension SQLiteVerificationStore: RateLimitStore {
    public func consume(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        let start = limit.windowStart(at).timeIntervalSince1970
        // One upsert: a row from an older window restarts at 1; a full window is left alone.
        let hits = try await database.write { db in
            try db.query("""
                INSERT INTO rate_limits (key, window_start, hits) VALUES (\(key), \(start), 1)
                ON CONFLICT (key) DO UPDATE SET
                    hits = CASE WHEN window_start = excluded.window_start THEN hits + 1 ELSE 1 END,
                    window_start = excluded.window_start
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
}
