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

    /// Writes the rows in key order, those that move the same columns together
    /// (`RollupUpserts`): a change moves one or two of the 33 columns (a start, a send, a
    /// conversion and its bucket), and a statement naming all of them bound and added 33
    /// values per row; one statement a row was 14 statements a create.
    func flush(_ connection: SQLiteConnection) throws {
        let ordered = rows.filter { !$0.value.isEmpty }.sorted { Row.precedes($0.key, $1.key) }
        rows = [:]
        try RollupUpserts.write(ordered.map { row, counts in
            let (columns, values) = Self.moved(counts)
            return RollupUpserts.Row(application: row.application, dimension: row.dimension.rawValue, span: row.span,
                                     hour: row.hour, key: row.key, currency: row.currency,
                                     columns: columns.map { InsightCounts.columns[$0] }, values: values)
        }, connection)
    }

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
}
