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

    /// Each change's deltas as the change gave them, with its application. They are merged
    /// by row once, when the transaction commits: a change pays for no hashing of its own,
    /// and a savepoint's release hands its changes on rather than merging them again. (Merged
    /// on every add and again on every release, then copied into a filtered table and a sorted
    /// array at the commit, they cost a create about 8 µs under `perf`; now about 5.)
    private var changes: [(application: String, deltas: [RollupDelta])] = []

    init() {}

    /// Adds `deltas`, the deltas of one change of `application`.
    func add(_ deltas: [RollupDelta], application: String) {
        if !deltas.isEmpty { changes.append((application, deltas)) }
    }

    func absorb(_ released: PendingRollups) {
        if changes.isEmpty {
            changes = released.changes
        } else {
            changes += released.changes
        }
    }

    /// The rows the changes move, each once, with what they add to it together.
    private func merged() -> [Row: InsightCounts] {
        var rows: [Row: InsightCounts] = [:]
        rows.reserveCapacity(changes.reduce(0) { $0 + $1.deltas.count })
        for (application, deltas) in changes {
            for delta in deltas {
                let row = Row(application: application, span: delta.span, hour: delta.hour,
                              dimension: delta.dimension, key: delta.key, currency: delta.currency)
                // Found once; a new row takes the delta's counts as they are, without adding them to zero.
                if let index = rows.index(forKey: row) {
                    rows.values[index] += delta.counts
                } else {
                    rows[row] = delta.counts
                }
            }
        }
        return rows
    }

    /// Writes the rows in key order, those that move the same columns together
    /// (`RollupUpserts`): a change moves one or two of the 33 columns (a start, a send, a
    /// conversion and its bucket), and a statement naming all of them bound and added 33
    /// values per row; one statement a row was 14 statements a create.
    func flush(_ connection: SQLiteConnection) throws {
        guard !changes.isEmpty else { return }
        let rows = merged()
        changes = []
        var ordered: [(row: Row, written: RollupUpserts.Row)] = []
        ordered.reserveCapacity(rows.count)
        for (row, counts) in rows {
            let (columns, values) = Self.moved(counts)
            guard !columns.isEmpty else { continue }
            ordered.append((row, RollupUpserts.Row(
                application: row.application, dimension: row.dimension.rawValue, span: row.span, hour: row.hour,
                key: row.key, currency: row.currency, columns: columns.map { InsightCounts.columns[$0] },
                values: values)))
        }
        ordered.sort { Row.precedes($0.row, $1.row) }
        try RollupUpserts.write(ordered.map(\.written), connection)
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
