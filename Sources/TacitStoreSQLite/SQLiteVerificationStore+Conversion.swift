import Foundation
import TacitStore

/// The conversion windows in the database file, so every process on it counts into one
/// window; the single writer makes the count and the taking of older windows one step.
extension SQLiteVerificationStore: ConversionStore {
    public func countConversions(_ counts: ConversionWindow) async throws -> ConversionWindow? {
        let slot = counts.slot
        return try await database.write { db in
            try db.execute("""
                INSERT INTO conversion_windows (slot, sends, verified)
                SELECT \(slot), \(counts.sends), \(counts.verified)
                WHERE NOT EXISTS (SELECT 1 FROM conversion_windows WHERE slot > \(slot))
                ON CONFLICT (slot) DO UPDATE
                SET sends = sends + excluded.sends, verified = verified + excluded.verified
                """)
            let closed = try db.query(
                "SELECT slot, sends, verified FROM conversion_windows WHERE slot < \(slot) ORDER BY slot DESC").first
            guard let closed else { return nil }
            try db.execute("DELETE FROM conversion_windows WHERE slot < \(slot)")
            return ConversionWindow(slot: try closed.int64("slot"), sends: try closed.int("sends"),
                                    verified: try closed.int("verified"))
        }
    }
}
