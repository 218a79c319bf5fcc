import Foundation
import TacitCore
import TacitStore

/// The insights reads (docs/api.md#insights) and the rollup rows each change adds to,
/// inside the writer's transaction that writes the change.
extension SQLiteVerificationStore {
    /// Adds each delta to its row, creating it at zero first: one statement for all of a
    /// change's rows (a create moves eight), so the change pays one statement's overhead,
    /// not one per row. The deltas are one per row, so no row appears twice in it.
    static func apply(_ rollups: [RollupDelta], application: String, _ db: SQLiteConnection) throws {
        guard !rollups.isEmpty else { return }
        // Appended in place: a create binds about two hundred values, and joining fragments
        // would copy them once per row.
        var sql = SQL.StringInterpolation(literalCapacity: 600 + 100 * rollups.count,
                                          interpolationCount: (6 + InsightCounts.columns.count) * rollups.count)
        sql.appendLiteral(insertHead)
        for (index, delta) in rollups.enumerated() {
            sql.appendLiteral(index == 0 ? "(" : ", (")
            sql.appendInterpolation(application)
            sql.appendLiteral(", ")
            sql.appendInterpolation(delta.dimension.rawValue)
            sql.appendLiteral(", ")
            sql.appendInterpolation(delta.span)
            sql.appendLiteral(", ")
            sql.appendInterpolation(delta.hour)
            sql.appendLiteral(", ")
            sql.appendInterpolation(delta.key)
            sql.appendLiteral(", ")
            sql.appendInterpolation(delta.currency)
            for value in delta.counts.columnValues {
                sql.appendLiteral(", ")
                sql.appendInterpolation(value)
            }
            sql.appendLiteral(")")
        }
        sql.appendLiteral(upsertTail)
        try db.execute(SQL(stringInterpolation: sql))
    }

    static let insertHead = "INSERT INTO insight_rollups (application_id, dimension, span, hour, key, currency, "
        + columnList + ") VALUES "
    static let upsertTail = " ON CONFLICT (application_id, dimension, span, hour, key, currency) DO UPDATE SET "
        + additions
    static let columnList = InsightCounts.columns.joined(separator: ", ")
    static let additions = InsightCounts.columns.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", ")
    static let sums = InsightCounts.columns.map { "SUM(\($0)) AS \($0)" }.joined(separator: ", ")

    public func verificationPage(_ query: VerificationListQuery, limit: Int) async throws -> [Verification] {
        let fields = try protection.get()
        var conditions: SQL = "application_id = \(query.application)"
        if let status = query.status { conditions = "\(conditions) AND status = \(status.rawValue)" }
        if let region = query.region { conditions = "\(conditions) AND region = \(region)" }
        if let clientRef = query.clientRef { conditions = "\(conditions) AND client_ref = \(clientRef)" }
        if let from = query.from { conditions = "\(conditions) AND created_at >= \(from.timeIntervalSince1970)" }
        if let to = query.to { conditions = "\(conditions) AND created_at < \(to.timeIntervalSince1970)" }
        if let after = query.after {
            let at = after.createdAt.timeIntervalSince1970
            conditions = "\(conditions) AND (created_at < \(at) OR (created_at = \(at) AND id < \(after.id)))"
        }
        let statement: SQL = """
            SELECT * FROM verifications INDEXED BY verifications_by_application_created WHERE \(conditions)
            ORDER BY created_at DESC, id DESC LIMIT \(limit)
            """
        let rows = try await database.read { db in try db.query(statement) }
        return try rows.map { try Self.verification($0, fields) }
    }

    public func rollupSums(application: String, span: Int64, from: Int64, to: Int64,
                           grouping: InsightGrouping) async throws -> [RollupSum] {
        let key: SQL = grouping == .day ? "(hour / 86400) * 86400" : "key"
        let rows = try await database.read { db in
            try db.query("""
                SELECT \(key) AS grouped, currency, \(raw: Self.sums) FROM insight_rollups
                WHERE application_id = \(application) AND dimension = \(grouping.dimension.rawValue)
                    AND span = \(span) AND hour >= \(from) AND hour < \(to)
                GROUP BY grouped, currency
                """)
        }
        return try rows.map { row in
            let counts = InsightCounts(columnValues: try InsightCounts.columns.map { try row.int64($0) })
            let key = grouping == .day ? InsightGrouping.dayKey(try row.int64("grouped")) : try row.string("grouped")
            return RollupSum(key: key, currency: try row.string("currency"), counts: counts)
        }
    }
}
