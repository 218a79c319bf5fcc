import TacitStore

/// The rollup deltas of one transaction, merged by row and written in one upsert just
/// before it commits (docs/api.md#insights).
///
/// A group commit runs many changes in one transaction, and most of their rows are the same
/// (the hour's and the day's totals, their channel's, their country's): merged, a batch of
/// creates writes each row once, with one statement's overhead for all of it, where each
/// change used to write its own eight. A change's deltas are held in its savepoint, so a
/// change that fails leaves none (``CommitAccumulator``).
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
    /// Past this many rows a statement is prepared for its one use: the SQL differs with the
    /// number of rows, and caching each size a batch happens to have would push out the
    /// statements every write uses.
    static let cachedRowLimit = 16
    /// The most rows one statement binds, within SQLite's 32766 parameters; a batch of
    /// 64 changes moves far fewer.
    static let rowsPerStatement = 32_000 / (6 + InsightCounts.columns.count)

    init() {}

    /// Adds `deltas`, the deltas of one change of `application`.
    func add(_ deltas: [RollupDelta], application: String) {
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

    func flush(_ connection: SQLiteConnection) throws {
        let ordered = rows.filter { !$0.value.isEmpty }.sorted { Row.precedes($0.key, $1.key) }
        rows = [:]
        var start = 0
        while start < ordered.count {
            let end = min(start + Self.rowsPerStatement, ordered.count)
            let statement = Self.upsert(ordered[start..<end])
            try connection.execute(statement, cached: end - start <= Self.cachedRowLimit)
            start = end
        }
    }

    /// One statement adding each row's counts to it, creating it at zero first. No row
    /// appears twice in it: they are merged.
    static func upsert(_ rows: ArraySlice<(key: Row, value: InsightCounts)>) -> SQL {
        // Appended in place: a batch binds hundreds of values, and joining fragments would
        // copy them once per row.
        let perRow = 6 + InsightCounts.columns.count
        var sql = SQL.StringInterpolation(literalCapacity: 600 + 100 * rows.count,
                                          interpolationCount: perRow * rows.count)
        sql.appendLiteral(insertHead)
        for (index, (row, counts)) in rows.enumerated() {
            sql.appendLiteral(index == 0 ? "(" : ", (")
            sql.appendInterpolation(row.application)
            sql.appendLiteral(", ")
            sql.appendInterpolation(row.dimension.rawValue)
            sql.appendLiteral(", ")
            sql.appendInterpolation(row.span)
            sql.appendLiteral(", ")
            sql.appendInterpolation(row.hour)
            sql.appendLiteral(", ")
            sql.appendInterpolation(row.key)
            sql.appendLiteral(", ")
            sql.appendInterpolation(row.currency)
            counts.forEachColumnValue { value in
                sql.appendLiteral(", ")
                sql.appendInterpolation(value)
            }
            sql.appendLiteral(")")
        }
        sql.appendLiteral(upsertTail)
        return SQL(stringInterpolation: sql)
    }

    static let insertHead = "INSERT INTO insight_rollups (application_id, dimension, span, hour, key, currency, "
        + InsightCounts.columns.joined(separator: ", ") + ") VALUES "
    static let upsertTail = " ON CONFLICT (application_id, dimension, span, hour, key, currency) DO UPDATE SET "
        + InsightCounts.columns.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", ")
}
