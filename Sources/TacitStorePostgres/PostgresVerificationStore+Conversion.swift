import Foundation
import TacitStore

/// The conversion windows in the database, shared by every instance. The count is an
/// upsert on the window's row, and the older windows are taken by deleting them: of two
/// instances crossing into a new window at once, one deletes the old row and judges it,
/// the other's DELETE finds it gone.
extension PostgresVerificationStore: ConversionStore {
    public func countConversions(_ counts: ConversionWindow) async throws -> ConversionWindow? {
        let slot = counts.slot
        return try await write { db in
            // A statistic that only warns: a crash of PostgreSQL may lose its last counts,
            // so it doesn't wait for the WAL flush. Every instance counts into the same
            // row, so the count goes last, with the commit, and holds the row's lock for
            // one round trip.
            try db.queue(Self.asynchronousCommit)
            let taken = try db.query(
                "DELETE FROM conversion_windows WHERE slot < \(slot)::bigint RETURNING slot, sends, verified")
            try db.queue("""
                INSERT INTO conversion_windows (slot, sends, verified)
                SELECT \(slot)::bigint, \(counts.sends)::integer, \(counts.verified)::integer
                WHERE NOT EXISTS (SELECT 1 FROM conversion_windows WHERE slot > \(slot)::bigint)
                ON CONFLICT (slot) DO UPDATE SET sends = conversion_windows.sends + excluded.sends,
                    verified = conversion_windows.verified + excluded.verified
                """)
            guard let latest = try taken.max(by: { try $0.int("slot") < $1.int("slot") }) else { return nil }
            return ConversionWindow(slot: Int64(try latest.int("slot")), sends: try latest.int("sends"),
                                    verified: try latest.int("verified"))
        }
    }
}
