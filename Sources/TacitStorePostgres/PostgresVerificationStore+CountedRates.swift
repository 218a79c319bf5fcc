import Foundation
import TacitStore

/// Counters moved inside a transaction: `consume` runs one on its own, and an update runs
/// a change's `rates` in the transaction that writes the verification, so a check's wrong
/// code and its count in the number's run of failures commit together, whichever instance
/// took the check.
extension PostgresVerificationStore {
    /// Counts one hit on `key` under the counter row's lock, unless the counter is full.
    static func consumeRate(_ key: String, _ limit: RateLimit, at: Date,
                            _ db: PostgresConnection) throws -> RateDecision {
        // The row exists before it is locked, so a first hit locks it as a later one does.
        try db.execute(
            "INSERT INTO rate_limits (key, buckets, expires_at) VALUES (\(key), '', 0) ON CONFLICT (key) DO NOTHING")
        let row = try db.query("SELECT buckets FROM rate_limits WHERE key = \(key) FOR UPDATE").first
        var window = SlidingWindow(encoded: try row?.string("buckets") ?? "")
        let decision = window.consume(limit, at: at)
        guard case .allowed = decision else { return decision }
        try db.execute("""
            UPDATE rate_limits
            SET buckets = \(window.encoded), expires_at = \(window.expiry(limit).timeIntervalSince1970)
            WHERE key = \(key)
            """)
        return decision
    }

    /// Applies `changes` inside the caller's transaction. The verification's row is locked
    /// first (its UPDATE), then the counters', in that order everywhere: no two updates
    /// wait on each other's locks.
    static func apply(_ changes: [RateChange], at: Date, _ db: PostgresConnection) throws {
        for change in changes {
            switch change {
            case .consume(let key, let limit): _ = try consumeRate(key, limit, at: at, db)
            case .reset(let key): try db.execute("DELETE FROM rate_limits WHERE key = \(key)")
            }
        }
    }
}
