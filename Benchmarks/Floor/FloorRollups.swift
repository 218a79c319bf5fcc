import TacitStoreSQLite

/// The rollup rows a transaction's changes count in, merged by row and written just before it
/// commits, as Tacit's own are (docs/api.md#insights): a group commit's changes share the rows
/// of their hour and day, so each row is written once per batch, with only the columns it moves.
final class FloorRollups: CommitAccumulator {
    struct Row: Hashable {
        let dimension: String, span: Int64, hour: Int64, key: String, columns: [String]
    }

    private(set) var rows: [Row: Int64] = [:]

    init() {}

    func add(_ row: Row) { rows[row, default: 0] += 1 }

    func absorb(_ released: FloorRollups) {
        for (row, count) in released.rows { rows[row, default: 0] += count }
    }

    func flush(_ connection: SQLiteConnection) throws {
        let written = rows
        rows = [:]
        for (row, count) in written {
            let increments = row.columns.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", ")
            try connection.execute("""
                INSERT INTO insight_rollups (application_id, dimension, span, hour, key, currency, \
                \(raw: row.columns.joined(separator: ", ")))
                VALUES ('dev', \(row.dimension), \(row.span), \(row.hour), \(row.key), '', \
                \(list: row.columns.map { _ in count }))
                ON CONFLICT (application_id, dimension, span, hour, key, currency) DO UPDATE SET \(raw: increments)
                """)
        }
    }
}
