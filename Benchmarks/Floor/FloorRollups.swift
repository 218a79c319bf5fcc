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

    /// Rows that move the same columns go in one statement, in runs of 16, 8, 4, 2 or 1 rows,
    /// as Tacit writes them.
    func flush(_ connection: SQLiteConnection) throws {
        var byColumns: [[String]: [(row: Row, count: Int64)]] = [:]
        for (row, count) in rows { byColumns[row.columns, default: []].append((row, count)) }
        rows = [:]
        for (columns, written) in byColumns {
            var left = written[...]
            while !left.isEmpty {
                let size = [16, 8, 4, 2, 1].first { $0 <= left.count } ?? 1
                try connection.execute(Self.upsert(left.prefix(size), columns: columns))
                left = left.dropFirst(size)
            }
        }
    }

    private static func upsert(_ rows: ArraySlice<(row: Row, count: Int64)>, columns: [String]) -> SQL {
        var statement = SQL.StringInterpolation(literalCapacity: 400, interpolationCount: rows.count * 8)
        statement.appendLiteral("INSERT INTO insight_rollups (application_id, dimension, span, hour, key, currency, ")
        statement.appendLiteral(columns.joined(separator: ", ") + ") VALUES ")
        for (index, (row, count)) in rows.enumerated() {
            statement.appendLiteral(index == 0 ? "('dev', " : ", ('dev', ")
            statement.appendInterpolation(row.dimension)
            statement.appendLiteral(", ")
            statement.appendInterpolation(row.span)
            statement.appendLiteral(", ")
            statement.appendInterpolation(row.hour)
            statement.appendLiteral(", ")
            statement.appendInterpolation(row.key)
            statement.appendLiteral(", '', ")
            statement.appendInterpolation(list: columns.map { _ in count })
            statement.appendLiteral(")")
        }
        statement.appendLiteral(" ON CONFLICT (application_id, dimension, span, hour, key, currency) DO UPDATE SET ")
        statement.appendLiteral(columns.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", "))
        return SQL(stringInterpolation: statement)
    }
}
