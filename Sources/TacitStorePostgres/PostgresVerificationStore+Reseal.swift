import Foundation
import TacitStore

/// `tacit keys reseal` on PostgreSQL: every number, stored reply, application secret, owed
/// code and dev field not sealed under the newest key is opened and sealed again, in
/// batches read outside any transaction and written in one short transaction each. Servers keep running meanwhile:
/// each update applies only while the sealed value is still the one read, so a row another
/// instance changed in between keeps its change (and is counted in `remaining` if that
/// instance doesn't know the newest key yet).
extension PostgresVerificationStore: ResealableStore {
    /// Rows per batch.
    static let resealBatch = 200

    public func reseal(current: [UInt8]) async throws -> ResealReport {
        let fields = try protection()
        var report = ResealReport()
        (report.numbers, report.pending) = try await resealNumbers(current: current, fields)
        report.replies = try await resealReplies(current: current, fields)
        report.applicationSecrets = try await resealApplicationSecrets(current: current, fields)
        (report.sendCodes, report.devFields) = try await resealOwed(current: current, fields)
        report.remaining = try await owedLeft(current: current) + read { db in
            try db.query("""
                SELECT (SELECT COUNT(*) FROM verifications
                        WHERE substr(phone_sealed, 1, \(current.count)::integer) <> \(current)::bytea)
                     + (SELECT COUNT(*) FROM idempotency
                        WHERE status != 0 AND substr(body, 1, \(current.count)::integer) <> \(current)::bytea)
                     + (SELECT COUNT(*) FROM face_credentials WHERE kind = 'sealed_secret' AND bytes IS NOT NULL
                            AND substr(bytes, 1, \(current.count)::integer) <> \(current)::bytea) AS n
                """).first?.int("n") ?? 0
        }
        report.legacyAPIKeys = try await read { db in
            try db.query("SELECT COUNT(*) AS n FROM api_keys WHERE length(key_hash) = 32 AND revoked_at IS NULL")
                .first?.int("n") ?? 0
        }
        return report
    }

    /// The numbers, in insertion order, sealed again and re-indexed; returns how many, and
    /// how many of those are pending.
    private func resealNumbers(current: [UInt8], _ fields: any FieldProtection) async throws -> (Int, Int) {
        var resealed = 0, pending = 0
        var after: Int64 = 0
        while true {
            let rows = try await read { [after] db in
                try db.query("""
                    SELECT position, id, status, phone_sealed FROM verifications
                    WHERE position > \(after)::bigint
                        AND substr(phone_sealed, 1, \(current.count)::integer) <> \(current)::bytea
                    ORDER BY position LIMIT \(Self.resealBatch)
                    """)
            }
            guard let last = rows.last else { return (resealed, pending) }
            after = Int64(try last.int("position"))
            var changes: [(id: String, old: [UInt8], sealed: [UInt8], index: String)] = []
            for row in rows {
                let old = try row.bytes("phone_sealed")
                let phone = try fields.open(old)
                changes.append((try row.string("id"), old, try fields.seal(phone),
                                try fields.index(SealedContact.contact(phone))))
                if try row.string("status") == "pending" { pending += 1 }
            }
            resealed += try await write { [changes] db in
                try changes.reduce(0) { written, change in
                    written + (try db.execute("""
                        UPDATE verifications SET phone_sealed = \(change.sealed), phone_index = \(change.index)
                        WHERE id = \(change.id) AND phone_sealed = \(change.old)::bytea
                        """))
                }
            }
        }
    }

    /// The stored replies, keyed by their (hashed) idempotency key; a reply still being
    /// answered (status 0) holds no sealed body yet.
    private func resealReplies(current: [UInt8], _ fields: any FieldProtection) async throws -> Int {
        var resealed = 0
        var after = ""
        while true {
            let rows = try await read { [after] db in
                try db.query("""
                    SELECT key, body FROM idempotency WHERE key > \(after) AND status != 0
                        AND substr(body, 1, \(current.count)::integer) <> \(current)::bytea
                    ORDER BY key LIMIT \(Self.resealBatch)
                    """)
            }
            guard let last = rows.last else { return resealed }
            after = try last.string("key")
            let changes = try rows.map { row in
                let old = try row.bytes("body")
                return (key: try row.string("key"), old: old, sealed: try fields.seal(try fields.open(old)))
            }
            resealed += try await write { [changes] db in
                try changes.reduce(0) { written, change in
                    written + (try db.execute("""
                        UPDATE idempotency SET body = \(change.sealed)
                        WHERE key = \(change.key) AND body = \(change.old)::bytea
                        """))
                }
            }
        }
    }

    /// The secrets the faces keep sealed for applications: few rows, so one read and one write.
    private func resealApplicationSecrets(current: [UInt8], _ fields: any FieldProtection) async throws -> Int {
        let rows = try await read { db in
            try db.query("""
                SELECT application_id, face, name, bytes AS sealed FROM face_credentials
                WHERE kind = 'sealed_secret' AND bytes IS NOT NULL
                    AND substr(bytes, 1, \(current.count)::integer) <> \(current)::bytea
                """)
        }
        let changes = try rows.map { row in
            let old = try row.bytes("sealed")
            return (id: try row.string("application_id"), face: try row.string("face"), name: try row.string("name"),
                    old: old, sealed: try fields.seal(try fields.open(old)))
        }
        return try await write { [changes] db in
            try changes.reduce(0) { written, change in
                written + (try db.execute("""
                    UPDATE face_credentials SET bytes = \(change.sealed)
                    WHERE application_id = \(change.id) AND face = \(change.face) AND name = \(change.name)
                        AND bytes = \(change.old)::bytea
                    """))
            }
        }
    }
}
