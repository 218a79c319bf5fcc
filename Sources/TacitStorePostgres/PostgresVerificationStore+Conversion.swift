import Foundation
import TacitStore

/// The conversion windows in the database, shared by every instance. The count is an
/// upsert on the window's row, and the older windows are taken by deleting them: of two
/// instances crossing into a new window at once, one deletes the old row and judges it,
/// the other's DELETE finds it gone.
extension PostgresVerificationStore: ConversionStore {
    public func countConversion(_ event: ConversionEvent, slot: Int64) async throws -> ConversionWindow? {
        let sends = event == .sent ? 1 : 0, verified = event == .verified ? 1 : 0
        return try await write { db in
            try db.execute("""
                INSERT INTO conversion_windows (slot, sends, verified) VALUES (\(slot)::bigint, \(sends)::integer, \(verified)::integer)
                ON CONFLICT (slot) DO UPDATE SET sends = conversion_windows.sends + excluded.sends,
                    verified = conversion_windows.verified + excluded.verified
                """)
            let taken = try db.query("DELETE FROM conversion_windows WHERE slot < \(slot)::bigint RETURNING slot, sends, verified")
            guard let latest = try taken.max(by: { try $0.int("slot") < $1.int("slot") }) else { return nil }
            return ConversionWindow(slot: Int64(try latest.int("slot")), sends: try latest.int("sends"), verified: try latest.int("verified"))
        }
    }
}
