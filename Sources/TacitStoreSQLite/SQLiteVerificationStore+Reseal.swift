import Foundation
import TacitStore

extension SQLiteVerificationStore: ResealableStore {
    /// Rows per write: a batch is opened and sealed before the writer's turn, which then
    /// only runs its updates, so the writer is never held long.
    static let resealBatch = 200

    /// Seals every stored number, reply, owed code and dev field that doesn't start with `current` (the newest
    /// key's header) again under the store's field protection, in batches. A row changed
    /// in between keeps its change: each update applies only if the sealed value is still
    /// the one that was read.
    public func reseal(current: [UInt8]) async throws -> ResealReport {
        let fields = try protection.get()
        var report = ResealReport()
        (report.numbers, report.pending) = try await resealNumbers(current: current, fields)
        report.replies = try await resealReplies(current: current, fields)
        report.applicationSecrets = try await resealApplicationSecrets(current: current, fields)
        (report.sendCodes, report.devFields) = try await resealOwed(current: current, fields)
        report.remaining = try await database.read { db in
            try db.query("""
                SELECT (SELECT COUNT(*) FROM verifications
                        WHERE substr(phone_sealed, 1, \(current.count)) IS NOT \(current))
                     + (SELECT COUNT(*) FROM idempotency
                        WHERE status != 0 AND substr(body, 1, \(current.count)) IS NOT \(current)) AS n
                """).first?.int("n") ?? 0
        } + (try await applicationSecretsLeft(current: current)) + (try await owedLeft(current: current))
        report.legacyAPIKeys = try await database.read { db in
            try db.query("SELECT COUNT(*) AS n FROM api_keys WHERE length(key_hash) = 32 AND revoked_at IS NULL")
                .first?.int("n") ?? 0
        }
        return report
    }

    /// The numbers' half of `reseal`, in rowid order; returns how many were sealed again
    /// and how many of those are pending.
    private func resealNumbers(current: [UInt8], _ fields: any FieldProtection) async throws -> (Int, Int) {
        var resealed = 0, pending = 0
        var after: Int64 = 0
        while true {
            let rows = try await database.read { [after] db in
                try db.query("""
                    SELECT rowid AS n, id, status, phone_sealed AS sealed FROM verifications
                    WHERE rowid > \(after) AND substr(phone_sealed, 1, \(current.count)) IS NOT \(current)
                    ORDER BY rowid LIMIT \(Self.resealBatch)
                    """)
            }
            guard let last = rows.last else { return (resealed, pending) }
            after = try last.int64("n")
            var changes: [(id: String, old: [UInt8], sealed: [UInt8], index: String)] = []
            for row in rows {
                let old = try row.blob("sealed")
                let phone = try fields.open(old)
                changes.append((try row.string("id"), old, try fields.seal(phone),
                                try fields.index(SealedContact.contact(phone))))
                if try row.string("status") == "pending" { pending += 1 }
            }
            resealed += try await database.write { [changes] db in
                var written = 0
                for change in changes {
                    try db.execute("""
                        UPDATE verifications SET phone_sealed = \(change.sealed), phone_index = \(change.index)
                        WHERE id = \(change.id) AND phone_sealed = \(change.old)
                        """)
                    written += db.changes
                }
                return written
            }
        }
    }

    /// The stored replies' half of `reseal`, keyed by their (hashed) idempotency key.
    private func resealReplies(current: [UInt8], _ fields: any FieldProtection) async throws -> Int {
        var resealed = 0
        var after = ""
        while true {
            let rows = try await database.read { [after] db in
                try db.query("""
                    SELECT key, body FROM idempotency WHERE key > \(after) AND status != 0
                        AND substr(body, 1, \(current.count)) IS NOT \(current) ORDER BY key LIMIT \(Self.resealBatch)
                    """)
            }
            guard let last = rows.last else { return resealed }
            after = try last.string("key")
            var changes: [(key: String, old: [UInt8], sealed: [UInt8])] = []
            for row in rows {
                let old = try row.blob("body")
                changes.append((try row.string("key"), old, try fields.seal(try fields.open(old))))
            }
            resealed += try await database.write { [changes] db in
                var written = 0
                for change in changes {
                    try db.execute("UPDATE idempotency SET body = \(change.sealed) "
                                   + "WHERE key = \(change.key) AND body = \(change.old)")
                    written += db.changes
                }
                return written
            }
        }
    }
}
