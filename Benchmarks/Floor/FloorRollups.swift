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

    /// Through Tacit's own rollup writer (`RollupUpserts`), rows that move the same columns together.
    func flush(_ connection: SQLiteConnection) throws {
        let written = rows.map { row, count in
            RollupUpserts.Row(application: "dev", dimension: row.dimension, span: row.span, hour: row.hour,
                              key: row.key, currency: "", columns: row.columns, values: row.columns.map { _ in count })
        }
        rows = [:]
        try RollupUpserts.write(written, connection)
    }
}
