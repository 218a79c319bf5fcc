import Foundation
import TacitStore

extension SQLiteVerificationStore {
    /// The applications' half of `reseal`: their sealed Vonage signature secrets (few rows,
    /// so one read and one write), each updated only if it is still the value that was read.
    func resealApplicationSecrets(current: [UInt8], _ fields: any FieldProtection) async throws -> Int {
        let rows = try await database.read { db in
            try db.query("""
                SELECT id, vonage_signature_secret AS sealed FROM applications
                WHERE vonage_signature_secret IS NOT NULL AND substr(vonage_signature_secret, 1, \(current.count)) IS NOT \(current)
                """)
        }
        var changes: [(id: String, old: [UInt8], sealed: [UInt8])] = []
        for row in rows {
            let old = try row.blob("sealed")
            changes.append((try row.string("id"), old, try fields.seal(try fields.open(old))))
        }
        return try await database.write { [changes] db in
            var written = 0
            for change in changes {
                try db.execute("""
                    UPDATE applications SET vonage_signature_secret = \(change.sealed)
                    WHERE id = \(change.id) AND vonage_signature_secret = \(change.old)
                    """)
                written += db.changes
            }
            return written
        }
    }

    /// Signature secrets still sealed under another key than `current`.
    func applicationSecretsLeft(current: [UInt8]) async throws -> Int {
        try await database.read { db in
            try db.query("""
                SELECT COUNT(*) AS n FROM applications
                WHERE vonage_signature_secret IS NOT NULL AND substr(vonage_signature_secret, 1, \(current.count)) IS NOT \(current)
                """).first?.int("n") ?? 0
        }
    }
}
