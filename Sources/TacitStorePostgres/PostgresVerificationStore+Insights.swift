import Foundation
import TacitCore
import TacitStore

/// The insights reads (docs/api.md#insights), and the rollup rows each change adds to as
/// one more write of the statement that writes the change.
extension PostgresVerificationStore {
    /// One upsert of every row the change moves (none when it moves none). The rows are
    /// already in one order for every change (`RollupDelta.ordered`), so two transactions
    /// lock the rows they share in the same order and never wait on each other.
    static func upserts(_ rollups: [RollupDelta], application: String) -> [PostgresQuery] {
        guard !rollups.isEmpty else { return [] }
        let rows = PostgresQuery(joining: rollups.map { delta in
            let values = PostgresQuery(joining: delta.counts.columnValues.map { "\($0)::bigint" }, separator: ", ")
            return """
                (\(application), \(delta.dimension.rawValue), \(delta.span)::bigint, \(delta.hour)::bigint, \
                \(delta.key), \(delta.currency), \(values))
                """
        }, separator: ", ")
        return ["""
            INSERT INTO insight_rollups AS r (application_id, dimension, span, hour, key, currency, \(columnList))
            VALUES \(rows)
            ON CONFLICT (application_id, dimension, span, hour, key, currency) DO UPDATE SET \(additions)
            """]
    }

    public func addRollups(_ deltas: [RollupDelta], application: String) async throws {
        let statements = Self.upserts(deltas, application: application)
        guard !statements.isEmpty else { return }
        try await write { db in for statement in statements { _ = try db.execute(statement) } }
    }

    static let columnList = PostgresQuery(stringLiteral: InsightCounts.columns.joined(separator: ", "))
    static let additions = PostgresQuery(stringLiteral: InsightCounts.columns.map {
        "\($0) = r.\($0) + excluded.\($0)"
    }.joined(separator: ", "))
    static let sums = PostgresQuery(stringLiteral: InsightCounts.columns.map {
        "SUM(\($0))::bigint AS \($0)"
    }.joined(separator: ", "))

    public func verificationPage(_ query: VerificationListQuery, limit: Int) async throws -> [Verification] {
        let fields = try protection()
        var conditions: [PostgresQuery] = ["application_id = \(query.application)"]
        if let status = query.status { conditions.append("status = \(status.rawValue)") }
        if let region = query.region { conditions.append("region = \(region)") }
        if let clientRef = query.clientRef { conditions.append("client_ref = \(clientRef)") }
        if let from = query.from { conditions.append("created_at >= \(from.timeIntervalSince1970)") }
        if let to = query.to { conditions.append("created_at < \(to.timeIntervalSince1970)") }
        if let after = query.after {
            let at = after.createdAt.timeIntervalSince1970
            conditions.append("(created_at, id) < (\(at)::double precision, \(after.id)::text)")
        }
        let statement: PostgresQuery = """
            SELECT * FROM verifications WHERE \(PostgresQuery(joining: conditions, separator: " AND "))
            ORDER BY created_at DESC, id DESC LIMIT \(limit)
            """
        let rows = try await read { db in try db.query(statement) }
        return try rows.map { try Self.verification($0, fields) }
    }

    public func rollupSums(application: String, span: Int64, from: Int64, to: Int64,
                           grouping: InsightGrouping) async throws -> [RollupSum] {
        let key: PostgresQuery = grouping == .day ? "((hour / 86400) * 86400)::text" : "key"
        let statement: PostgresQuery = """
            SELECT \(key) AS grouped, currency, \(Self.sums) FROM insight_rollups
            WHERE application_id = \(application) AND dimension = \(grouping.dimension.rawValue)
                AND span = \(span)::bigint AND hour >= \(from)::bigint AND hour < \(to)::bigint
            GROUP BY grouped, currency
            """
        let rows = try await read { db in try db.query(statement) }
        return try rows.map { row in
            let values = try InsightCounts.columns.map { Int64(try row.int($0)) }
            let grouped = try row.string("grouped")
            let key = grouping == .day ? InsightGrouping.dayKey(Int64(grouped) ?? 0) : grouped
            let counts = InsightCounts(columnValues: values)
            return RollupSum(key: key, currency: try row.string("currency"), counts: counts)
        }
    }
}
