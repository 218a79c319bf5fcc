import Foundation
import TacitStore

extension PostgresVerificationStore {
    /// Seals every owed code and dev field again (`OwedSealedColumn`); returns how many codes and dev fields.
    func resealOwed(current: [UInt8], _ fields: any FieldProtection) async throws -> (codes: Int, dev: Int) {
        try await OwedSealedColumn.resealAll { sealed in
            try await resealColumn(sealed.table, key: sealed.key, column: sealed.column, current: current, fields)
        }
    }

    /// Owed codes and dev fields still sealed under another key than `current`.
    func owedLeft(current: [UInt8]) async throws -> Int {
        var left = 0
        for sealed in OwedSealedColumn.all {
            let from = PostgresQuery(
                stringLiteral: "SELECT COUNT(*) AS n FROM \(sealed.table) WHERE substr(\(sealed.column), 1, ")
            left += try await read { db in
                try db.query("\(from)\(current.count)::integer) <> \(current)::bytea").first?.int("n") ?? 0
            }
        }
        return left
    }

    /// One column, in batches by key. A value no key of the ring opens stays as it is and
    /// counts as remaining: a code the send worker can't open is dropped, and a dev secret
    /// is replaced, so neither is lost data. Each update applies only to the value read.
    private func resealColumn(_ table: String, key: String, column: String, current: [UInt8],
                              _ fields: any FieldProtection) async throws -> Int {
        let select = PostgresQuery(
            stringLiteral: "SELECT \(key) AS k, \(column) AS sealed FROM \(table) WHERE \(key) > ")
        let stale = PostgresQuery(stringLiteral: " AND substr(\(column), 1, ")
        let order = PostgresQuery(stringLiteral: " ORDER BY \(key) LIMIT ")
        let update = PostgresQuery(stringLiteral: "UPDATE \(table) SET \(column) = ")
        let byKey = PostgresQuery(stringLiteral: " WHERE \(key) = ")
        let unchanged = PostgresQuery(stringLiteral: " AND \(column) = ")
        var resealed = 0
        var after = ""
        while true {
            let rows = try await read { [after] db in
                try db.query("""
                    \(select)\(after)\(stale)\(current.count)::integer) <> \(current)::bytea\(order)\(Self.resealBatch)
                    """)
            }
            guard let last = rows.last else { return resealed }
            after = try last.string("k")
            var changes: [(key: String, old: [UInt8], sealed: [UInt8])] = []
            for row in rows {
                let old = try row.bytes("sealed")
                guard let opened = try? fields.open(old) else { continue }
                changes.append((try row.string("k"), old, try fields.seal(opened)))
            }
            resealed += try await write { [changes] db in
                try changes.reduce(0) { written, change in
                    written + (try db.execute(
                        "\(update)\(change.sealed)\(byKey)\(change.key)\(unchanged)\(change.old)::bytea"))
                }
            }
        }
    }
}
