import Foundation
import TacitCore
import TacitStore

/// Rollup rows kept in memory, by application, dimension, hour, key and currency.
struct InMemoryRollups {
    struct RowKey: Hashable {
        var application: String
        var dimension: InsightDimension
        var span: Int64
        var hour: Int64
        var key: String
        var currency: String
    }
    var rows: [RowKey: InsightCounts] = [:]

    mutating func add(_ deltas: [RollupDelta], application: String) {
        for delta in deltas {
            let key = RowKey(application: application, dimension: delta.dimension, span: delta.span, hour: delta.hour,
                             key: delta.key, currency: delta.currency)
            rows[key, default: InsightCounts()] += delta.counts
        }
    }
}

extension InMemoryStore {
    public func verificationPage(_ query: VerificationListQuery, limit: Int) async throws -> [Verification] {
        state.withLock { state in
            let matching = state.verifications.values.filter { v in
                guard v.applicationId == query.application else { return false }
                if let status = query.status, v.status != status { return false }
                if let region = query.region, v.region != region { return false }
                if let clientRef = query.clientRef, v.clientRef != clientRef { return false }
                if let from = query.from, v.createdAt < from { return false }
                if let to = query.to, v.createdAt >= to { return false }
                if let after = query.after {
                    return v.createdAt < after.createdAt || (v.createdAt == after.createdAt && v.id < after.id)
                }
                return true
            }
            let newest = matching.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
            return Array(newest.prefix(limit))
        }
    }

    public func addRollups(_ deltas: [RollupDelta], application: String) async throws {
        state.withLock { $0.rollups.add(deltas, application: application) }
    }

    public func rollupSums(application: String, span: Int64, from: Int64, to: Int64,
                           grouping: InsightGrouping) async throws -> [RollupSum] {
        state.withLock { state in
            var sums: [String: [String: InsightCounts]] = [:]
            for (row, counts) in state.rollups.rows where row.application == application
                && row.dimension == grouping.dimension && row.span == span && row.hour >= from && row.hour < to {
                let key = grouping == .day ? InsightGrouping.dayKey(row.hour) : row.key
                sums[key, default: [:]][row.currency, default: InsightCounts()] += counts
            }
            return sums.flatMap { key, byCurrency in
                byCurrency.map { RollupSum(key: key, currency: $0.key, counts: $0.value) }
            }
        }
    }
}
