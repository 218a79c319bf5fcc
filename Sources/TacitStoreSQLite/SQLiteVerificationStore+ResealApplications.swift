import Foundation
import TacitStore

extension SQLiteVerificationStore {
    /// The faces' half of `reseal`: the secrets they keep sealed for applications (few rows,
    /// so one read and one write), each updated only if it is still the value that was read.
    func resealApplicationSecrets(current: [UInt8], _ fields: any FieldProtection) async throws -> Int {
        let rows = try await database.read { db in
            try db.query("""
                SELECT application_id, face, name, bytes AS sealed FROM face_credentials
                WHERE kind = 'sealed_secret' AND bytes IS NOT NULL
                    AND substr(bytes, 1, \(current.count)) IS NOT \(current)
                """)
        }
        var changes: [(id: String, face: String, name: String, old: [UInt8], sealed: [UInt8])] = []
        for row in rows {
            let old = try row.blob("sealed")
            changes.append((try row.string("application_id"), try row.string("face"), try row.string("name"), old,
                            try fields.seal(try fields.open(old))))
        }
        return try await database.write { [changes] db in
            var written = 0
            for change in changes {
                try db.execute("""
                    UPDATE face_credentials SET bytes = \(change.sealed)
                    WHERE application_id = \(change.id) AND face = \(change.face) AND name = \(change.name)
                        AND bytes = \(change.old)
                    """)
                written += db.changes
            }
            return written
        }
    }

    /// Sealed face secrets still sealed under another key than `current`.
    func applicationSecretsLeft(current: [UInt8]) async throws -> Int {
        try await database.read { db in
            try db.query("""
                SELECT COUNT(*) AS n FROM face_credentials
                WHERE kind = 'sealed_secret' AND bytes IS NOT NULL
                    AND substr(bytes, 1, \(current.count)) IS NOT \(current)
                """).first?.int("n") ?? 0
        }
    }
}
