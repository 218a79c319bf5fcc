import Foundation
import TacitStore

extension SQLiteVerificationStore: ClientTokenDirectory {
    /// Looks among pending verifications only, through an index on the token's hash; a
    /// token stops mattering once its verification has finished.
    public func pendingVerificationID(clientTokenHash: [UInt8]) async throws -> String? {
        let rows = try await database.read { db in
            try db.query("SELECT id FROM verifications WHERE status = 'pending' AND client_token_hash = \(clientTokenHash) LIMIT 1")
        }
        return try rows.first?.string("id")
    }
}
