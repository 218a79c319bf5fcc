import Foundation
import TacitStore

extension SQLiteVerificationStore: ClientTokenDirectory {
    /// Scans pending verifications only (the partial index keeps that set small); a
    /// token stops mattering once its verification has finished.
    public func pendingVerificationID(clientTokenHash: [UInt8]) async throws -> String? {
        let wanted = String(decoding: try JSONEncoder().encode(clientTokenHash), as: UTF8.self)
        let rows = try await database.read { db in
            try db.query("""
                SELECT id FROM verifications
                WHERE status = 'pending' AND json_extract(CAST(record AS TEXT), '$.clientTokenHash') = \(wanted)
                LIMIT 1
                """)
        }
        return try rows.first?.string("id")
    }
}
