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

    /// Writes each row with a statement of its own that names only the columns it moves: a
    /// change moves one or two of the 33 (a start, a send, a conversion and its bucket), and a
    /// statement naming all of them bound and added 33 values per row. Rows of the same columns
    /// share a statement's text, so the few shapes there are stay prepared.
    func flush(_ connection: SQLiteConnection) throws {
        let ordered = rows.filter { !$0.value.isEmpty }.sorted { Row.precedes($0.key, $1.key) }
        rows = [:]
        for (row, counts) in ordered {
            try connection.execute(Self.upsert(row, counts))
        }
    }

    /// One statement adding `counts`' non-zero columns to `row`, creating it at zero first.
    static func upsert(_ row: Row, _ counts: InsightCounts) -> SQL {
        var names: [String] = []
        var increments: [String] = []
        var values: [Int64] = []
        var column = 0
        counts.forEachColumnValue { value in
            if value != 0 {
                names.append(InsightCounts.columns[column])
                increments.append(Self.increments[column])
                values.append(value)
            }
            column += 1
        }
        return """
            INSERT INTO insight_rollups (application_id, dimension, span, hour, key, currency, \
            \(raw: names.joined(separator: ", ")))
            VALUES (\(row.application), \(row.dimension.rawValue), \(row.span), \(row.hour), \(row.key), \
            \(row.currency), \(list: values))
            ON CONFLICT (application_id, dimension, span, hour, key, currency) DO UPDATE SET \
            \(raw: increments.joined(separator: ", "))
            """
    }

    /// Each count column's `SET` clause, in the order of `InsightCounts.columns`.
    static let increments = InsightCounts.columns.map { "\($0) = \($0) + excluded.\($0)" }
}
