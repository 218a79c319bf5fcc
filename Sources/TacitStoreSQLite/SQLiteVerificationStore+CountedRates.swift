import Foundation
import TacitStore

/// Counters moved inside a write: `consume` runs one on its own, and an update runs a
/// change's `rates` in the transaction that writes the verification, so a check's wrong
/// code and its count in the number's run of failures commit together.
extension SQLiteVerificationStore {
    /// Counts one hit on `key` on the writer's connection, unless the counter is full.
    static func consumeRate(_ key: String, _ limit: RateLimit, at: Date,
                            _ db: SQLiteConnection) throws -> RateDecision {
        let row = try db.query("SELECT buckets FROM rate_limits WHERE key = \(key)").first
        var window = SlidingWindow(encoded: try row?.string("buckets") ?? "")
        let decision = window.consume(limit, at: at)
        guard case .allowed(let hits) = decision else { return decision }
        let buckets = window.encoded, expires = window.expiry(limit).timeIntervalSince1970
        let oldest = window.buckets.first?.latest ?? at.timeIntervalSince1970
        try db.execute("""
            INSERT INTO rate_limits (key, window_start, hits, buckets, expires_at)
            VALUES (\(key), \(oldest), \(hits), \(buckets), \(expires))
            ON CONFLICT (key) DO UPDATE SET window_start = excluded.window_start, hits = excluded.hits,
                buckets = excluded.buckets, expires_at = excluded.expires_at
            """)
        return decision
    }

    /// Applies `changes` on the writer's connection, inside the caller's transaction.
    static func apply(_ changes: [RateChange], at: Date, _ db: SQLiteConnection) throws {
        for change in changes {
            switch change {
            case .consume(let key, let limit): _ = try consumeRate(key, limit, at: at, db)
            case .reset(let key): try db.execute("DELETE FROM rate_limits WHERE key = \(key)")
            }
        }
    }
}
