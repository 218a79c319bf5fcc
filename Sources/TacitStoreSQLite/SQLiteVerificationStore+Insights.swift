import Foundation
import TacitCore
import TacitStore

/// The insights reads (docs/api.md#insights) and the rollup rows each change adds to,
/// in the writer's transaction that writes the change.
extension SQLiteVerificationStore {
    /// Adds a change's deltas to its transaction's rollups: they are written with the
    /// transaction, merged with those of the other writes committed with it, and dropped
    /// with the change when it fails (``PendingRollups``).
    static func apply(_ rollups: [RollupDelta], application: String, _ db: SQLiteConnection) throws {
        guard !rollups.isEmpty else { return }
        try db.accumulate(PendingRollups.self) { $0.add(rollups, application: application) }
    }

    public func addRollups(_ deltas: [RollupDelta], application: String) async throws {
        guard !deltas.isEmpty else { return }
        // Joins the group commit like any write: its rows merge into the batch's one upsert.
        try await database.write { db in try Self.apply(deltas, application: application, db) }
    }

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
