import Foundation
import TacitCore
import TacitStore

/// An application's verifications by creation time, for the backtest (docs/fraud.md#backtest).
extension SQLiteVerificationStore: VerificationHistoryStore {
    public func verifications(application: String, createdFrom since: Date, before until: Date, offset: Int,
                              limit: Int) async throws -> [Verification] {
        let fields = try protection.get()
        let rows = try await database.read { db in
            try db.query("""
                SELECT * FROM verifications
                WHERE application_id = \(application) AND created_at >= \(since.timeIntervalSince1970)
                    AND created_at < \(until.timeIntervalSince1970)
                ORDER BY created_at, id LIMIT \(limit) OFFSET \(offset)
                """)
        }
        return try rows.map { try Self.verification($0, fields) }
    }
}
