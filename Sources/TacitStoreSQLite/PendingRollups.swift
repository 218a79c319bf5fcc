import TacitStore

/// The rollup deltas of one transaction, merged by row and written just before it commits
/// (docs/api.md#insights).
///
/// A group commit runs many changes in one transaction, and most of their rows are the same
/// (the hour's and the day's totals, their channel's, their country's): merged, a batch of
/// creates writes each row once, where each change used to write its own eight. A change's
/// deltas are held in its savepoint, so a change that fails leaves none (``CommitAccumulator``).
final class PendingRollups: CommitAccumulator {
    /// A row of `insight_rollups`, by its primary key.
    struct Row: Hashable {
        let application: String
        let span: Int64
        let hour: Int64
        let dimension: InsightDimension
        let key: String
        let currency: String

        /// The table's key order: rows written in it touch each leaf page once.
        static func precedes(_ a: Row, _ b: Row) -> Bool {
            if a.span != b.span || a.hour != b.hour { return (a.span, a.hour) < (b.span, b.hour) }
            if a.application != b.application { return a.application < b.application }
            return (a.dimension.rawValue, a.key, a.currency) < (b.dimension.rawValue, b.key, b.currency)
        }
    }

    private(set) var rows: [Row: InsightCounts] = [:]

    init() {}

    /// Adds `deltas`, the deltas of one change of `application`.
    func add(_ deltas: [RollupDelta], application: String) {
        // Sized at once: grown from empty, the table was copied four times a change (its
        // values are 33 counts each), 1 % of a check's samples.
        if rows.isEmpty { rows.reserveCapacity(deltas.count) }
        for delta in deltas {
            let row = Row(application: application, span: delta.span, hour: delta.hour, dimension: delta.dimension,
                          key: delta.key, currency: delta.currency)
            rows[row, default: InsightCounts()] += delta.counts
        }
    }

    func absorb(_ released: PendingRollups) {
        guard !rows.isEmpty else {
            rows = released.rows
            return
        }
        for (row, counts) in released.rows { rows[row, default: InsightCounts()] += counts }
    }

    /// Writes the rows, each statement naming only the columns its rows move: a change moves
    /// one or two of the 33 (a start, a send, a conversion and its bucket), and a statement
    /// naming all of them bound and added 33 values per row. Rows that move the same columns
    /// go in one statement, many rows at once (a create's 14 rows were 14 statements, each
    /// built, looked up, bound, stepped and reset), in runs of 16, 8, 4, 2 or 1 rows, so the
    /// few texts there are stay prepared.
    func flush(_ connection: SQLiteConnection) throws {
        let ordered = rows.filter { !$0.value.isEmpty }.sorted { Row.precedes($0.key, $1.key) }
        rows = [:]
        var shapes: [[Int]] = []
        var byShape: [[Int]: [(row: Row, values: [Int64])]] = [:]
        for (row, counts) in ordered {
            let (columns, values) = Self.moved(counts)
            if byShape[columns] == nil { shapes.append(columns) }
            byShape[columns, default: []].append((row, values))
        }
        for columns in shapes {
            var left = byShape[columns]![...]
            while !left.isEmpty {
                let size = Self.runSizes.first { $0 <= left.count } ?? 1
                try connection.execute(Self.upsert(left.prefix(size), columns: columns))
                left = left.dropFirst(size)
            }
        }
    }

    /// How many rows one statement adds, largest first.
    static let runSizes = [16, 8, 4, 2, 1]

    /// The columns `counts` moves (by their index in `InsightCounts.columns`) and by how much.
    static func moved(_ counts: InsightCounts) -> (columns: [Int], values: [Int64]) {
        var columns: [Int] = []
        var values: [Int64] = []
        var column = 0
        counts.forEachColumnValue { value in
            if value != 0 {
                columns.append(column)
                values.append(value)
            }
            column += 1
        }
        return (columns, values)
    }

    /// One statement adding each row's `values` to its `columns`, creating the row at zero first.
    /// Built in one buffer: joining fragments copied the text and bindings once a row.
    static func upsert(_ rows: ArraySlice<(row: Row, values: [Int64])>, columns: [Int]) -> SQL {
        var statement = SQL.StringInterpolation(literalCapacity: 160 + 40 * rows.count,
                                                interpolationCount: rows.count * (6 + columns.count))
        statement.appendLiteral("INSERT INTO insight_rollups (application_id, dimension, span, hour, key, currency, ")
        statement.appendLiteral(columns.map { InsightCounts.columns[$0] }.joined(separator: ", "))
        statement.appendLiteral(") VALUES ")
        for (index, (row, values)) in rows.enumerated() {
            statement.appendLiteral(index == 0 ? "(" : ", (")
            statement.appendInterpolation(row.application)
            statement.appendLiteral(", ")
            statement.appendInterpolation(row.dimension.rawValue)
            statement.appendLiteral(", ")
            statement.appendInterpolation(row.span)
            statement.appendLiteral(", ")
            statement.appendInterpolation(row.hour)
            statement.appendLiteral(", ")
            statement.appendInterpolation(row.key)
            statement.appendLiteral(", ")
            statement.appendInterpolation(row.currency)
            statement.appendLiteral(", ")
            statement.appendInterpolation(list: values)
            statement.appendLiteral(")")
        }
        statement.appendLiteral(" ON CONFLICT (application_id, dimension, span, hour, key, currency) DO UPDATE SET ")
        statement.appendLiteral(columns.map { Self.increments[$0] }.joined(separator: ", "))
        return SQL(stringInterpolation: statement)
    }

    /// Each count column's `SET` clause, in the order of `InsightCounts.columns`.
    static let increments = InsightCounts.columns.map { "\($0) = \($0) + excluded.\($0)" }
}
