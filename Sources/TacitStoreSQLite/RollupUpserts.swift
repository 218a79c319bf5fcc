/// How rollup rows reach `insight_rollups` (docs/api.md#insights): rows that move the same
/// columns go in one statement naming only those columns, many rows at once, each row
/// created at zero first and then added to. Runs are 16, 8, 4, 2 or 1 rows, so the few
/// statement texts there are stay prepared. Tacit's writer (`PendingRollups`) and the
/// benchmarks' floor both write through it.
public enum RollupUpserts {
    /// One row's key, the columns it moves and what it adds to each, in their order.
    public struct Row: Sendable {
        public var application: String
        public var dimension: String
        public var span: Int64
        public var hour: Int64
        public var key: String
        public var currency: String
        public var columns: [String]
        public var values: [Int64]

        public init(application: String, dimension: String, span: Int64, hour: Int64, key: String,
                    currency: String, columns: [String], values: [Int64]) {
            (self.application, self.dimension, self.span, self.hour) = (application, dimension, span, hour)
            (self.key, self.currency, self.columns, self.values) = (key, currency, columns, values)
        }
    }

    /// How many rows one statement adds, largest first.
    static let runSizes = [16, 8, 4, 2, 1]

    /// Writes `rows`: those that move the same columns together, each set of columns in the
    /// order its first row comes, and the rows of a set in their order.
    public static func write(_ rows: [Row], _ connection: SQLiteConnection) throws {
        // A few sets at most: each row's is found by comparing the names, not by hashing them all.
        var sets: [(columns: [String], rows: [Row])] = []
        for row in rows {
            if let index = sets.firstIndex(where: { $0.columns == row.columns }) {
                sets[index].rows.append(row)
            } else {
                sets.append((row.columns, [row]))
            }
        }
        for (columns, rows) in sets {
            var left = rows[...]
            while !left.isEmpty {
                let size = runSizes.first { $0 <= left.count } ?? 1
                try connection.execute(statement(left.prefix(size), columns: columns))
                left = left.dropFirst(size)
            }
        }
    }

    /// One statement for `rows`, built in one buffer: joining fragments copied the text and
    /// bindings once a row, and so did the arrays of each row's values and column names.
    static func statement(_ rows: ArraySlice<Row>, columns: [String]) -> SQL {
        var statement = SQL.StringInterpolation(literalCapacity: 160 + 40 * rows.count,
                                                interpolationCount: rows.count * (6 + columns.count))
        statement.appendLiteral("INSERT INTO insight_rollups (application_id, dimension, span, hour, key, currency")
        for column in columns { statement.appendLiteral(", " + column) }
        statement.appendLiteral(") VALUES ")
        // Each value after the row's first, bound after a comma.
        func then<Value: SQLiteValueConvertible>(_ value: Value) {
            statement.appendLiteral(", ")
            statement.appendInterpolation(value)
        }
        for (index, row) in rows.enumerated() {
            statement.appendLiteral(index == 0 ? "(" : ", (")
            statement.appendInterpolation(row.application)
            then(row.dimension)
            then(row.span)
            then(row.hour)
            then(row.key)
            then(row.currency)
            row.values.forEach(then)
            statement.appendLiteral(")")
        }
        statement.appendLiteral(" ON CONFLICT (application_id, dimension, span, hour, key, currency) DO UPDATE SET ")
        for (index, column) in columns.enumerated() {
            statement.appendLiteral((index == 0 ? "" : ", ") + column + " = " + column + " + excluded." + column)
        }
        return SQL(stringInterpolation: statement)
    }
}
