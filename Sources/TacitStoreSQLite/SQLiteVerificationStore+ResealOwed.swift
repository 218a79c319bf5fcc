import Foundation
import TacitStore

extension SQLiteVerificationStore {
    /// Seals every owed code and dev field again (`OwedSealedColumn`); returns how many codes and dev fields.
    func resealOwed(current: [UInt8], _ fields: any FieldProtection) async throws -> (codes: Int, dev: Int) {
        try await OwedSealedColumn.resealAll { sealed in
            try await resealColumn(sealed.table, key: sealed.key, column: sealed.column, current: current, fields)
        }
    }

    /// Owed codes and dev fields still sealed under another key than `current`.
    func owedLeft(current: [UInt8]) async throws -> Int {
        try await database.read { db in
            try OwedSealedColumn.all.reduce(0) { count, sealed in
                count + (try db.query("""
                    SELECT COUNT(*) AS n FROM \(raw: sealed.table)
                    WHERE substr(\(raw: sealed.column), 1, \(current.count)) IS NOT \(current)
                    """).first?.int("n") ?? 0)
            }
        }
    }

    /// One column, in batches by key. A value no key of the ring opens stays as it is and
    /// counts as remaining: a code the send worker can't open is dropped, and a dev secret
    /// is replaced, so neither is lost data. Each update applies only to the value read.
    private func resealColumn(_ table: String, key: String, column: String, current: [UInt8],
                              _ fields: any FieldProtection) async throws -> Int {
        var resealed = 0
        var after = ""
        while true {
            let rows = try await database.read { [after] db in
                try db.query("""
                    SELECT \(raw: key) AS k, \(raw: column) AS sealed FROM \(raw: table)
                    WHERE \(raw: key) > \(after) AND substr(\(raw: column), 1, \(current.count)) IS NOT \(current)
                    ORDER BY \(raw: key) LIMIT \(Self.resealBatch)
                    """)
            }
            guard let last = rows.last else { return resealed }
            after = try last.string("k")
            var changes: [(key: String, old: [UInt8], sealed: [UInt8])] = []
            for row in rows {
                let old = try row.blob("sealed")
                guard let opened = try? fields.open(old) else { continue }
                changes.append((try row.string("k"), old, try fields.seal(opened)))
            }
            resealed += try await database.write { [changes] db in
                var written = 0
                for change in changes {
                    try db.execute("""
                        UPDATE \(raw: table) SET \(raw: column) = \(change.sealed)
                        WHERE \(raw: key) = \(change.key) AND \(raw: column) = \(change.old)
                        """)
                    written += db.changes
                }
                return written
            }
        }
    }
}
