import Foundation
import TacitCore

/// What the insights routes read (docs/api.md#insights): an application's verifications a
/// page at a time, and sums of the rollup rows changes wrote as they happened.
public protocol InsightStore: Sendable {
    /// Up to `limit` of the application's verifications that match `query`'s column filters
    /// (every filter but `channel`), newest first, strictly after `query.after`: a keyset
    /// read off the (application, created, id) index, never an offset.
    func verificationPage(_ query: VerificationListQuery, limit: Int) async throws -> [Verification]

    /// The application's rollup rows of periods `span` long that start from `from` up to, not
    /// including, `to`, summed per key (a UTC day for `.day`) and currency.
    func rollupSums(application: String, span: Int64, from: Int64, to: Int64,
                    grouping: InsightGrouping) async throws -> [RollupSum]

    /// Adds `deltas` to the application's rollup rows in a write of their own: for what counts
    /// without a change to store (a start refused before it was stored). One upsert, no more.
    func addRollups(_ deltas: [RollupDelta], application: String) async throws
}

/// How a summary groups: by a rollup dimension, or by UTC day (from the channel rows, which
/// every count has).
public enum InsightGrouping: Sendable, Equatable {
    case dimension(InsightDimension)
    case day

    /// The rollup dimension whose rows are read.
    public var dimension: InsightDimension {
        if case .dimension(let dimension) = self { return dimension }
        return .channel
    }
}

/// One group's summed rollup rows in one currency (empty for counts).
public struct RollupSum: Sendable, Equatable {
    public var key: String
    public var currency: String
    public var counts: InsightCounts
    public init(key: String, currency: String, counts: InsightCounts) {
        self.key = key
        self.currency = currency
        self.counts = counts
    }
}

/// Where a list page ends: the last row's creation time and id.
public struct ListPosition: Sendable, Equatable {
    public var createdAt: Date
    public var id: String
    public init(createdAt: Date, id: String) {
        self.createdAt = createdAt
        self.id = id
    }
}

/// The list's filters (docs/api.md#the-list).
public struct VerificationListQuery: Sendable, Equatable {
    public var application: String
    public var status: VerificationStatus?
    public var channel: Channel?
    public var region: String?
    public var from: Date?
    public var to: Date?
    public var clientRef: String?
    public var after: ListPosition?

    public init(application: String, status: VerificationStatus? = nil, channel: Channel? = nil,
                region: String? = nil, from: Date? = nil, to: Date? = nil, clientRef: String? = nil,
                after: ListPosition? = nil) {
        self.application = application
        self.status = status
        self.channel = channel
        self.region = region
        self.from = from
        self.to = to
        self.clientRef = clientRef
        self.after = after
    }

    /// Whether `verification` passes the filters a store leaves to the caller (`channel`).
    public func admits(_ verification: Verification) -> Bool {
        guard let channel else { return true }
        return verification.workflow.contains { $0.channel == channel && $0.status != .unused }
    }
}

extension InsightStore {
    /// The application's rollups for the hours from `fromHour` up to `toHour`, summed per key
    /// and currency: whole UTC days from the day rows, the hours before the first and after
    /// the last whole day from the hour rows. A month's summary reads about 30 rows per key.
    public func rollupSums(application: String, fromHour: Int64, toHour: Int64,
                           grouping: InsightGrouping) async throws -> [RollupSum] {
        let firstDay = RollupDelta.day(of: fromHour + RollupDelta.daySpan - 1)
        let endDay = RollupDelta.day(of: toHour)
        var parts: [RollupSum] = []
        if firstDay < endDay {
            parts += try await rollupSums(application: application, span: RollupDelta.daySpan, from: firstDay,
                                          to: endDay, grouping: grouping)
            for (from, to) in [(fromHour, firstDay), (endDay, toHour)] where from < to {
                parts += try await rollupSums(application: application, span: RollupDelta.hourSpan, from: from,
                                              to: to, grouping: grouping)
            }
        } else {
            parts = try await rollupSums(application: application, span: RollupDelta.hourSpan, from: fromHour,
                                         to: toHour, grouping: grouping)
        }
        var merged: [String: RollupSum] = [:]
        for part in parts {
            let empty = RollupSum(key: part.key, currency: part.currency, counts: InsightCounts())
            merged["\(part.key)\u{1}\(part.currency)", default: empty].counts += part.counts
        }
        return Array(merged.values)
    }

    /// A page of up to `limit` verifications matching every filter, and where the next page
    /// starts (nil on the last). The channel filter is applied here, reading further batches
    /// until the page fills; after `maxBatches` a page may come back short with a cursor, so
    /// one request's work stays bounded however rare the channel is.
    public func listVerifications(_ query: VerificationListQuery, limit: Int,
                                  maxBatches: Int = 20) async throws -> (page: [Verification], next: ListPosition?) {
        var cursor = query
        var page: [Verification] = []
        let batch = query.channel == nil ? limit + 1 : max(2 * limit, 100)
        for _ in 0..<maxBatches {
            let rows = try await verificationPage(cursor, limit: batch)
            for row in rows where query.admits(row) {
                if page.count == limit {
                    let last = page[page.count - 1]
                    return (page, ListPosition(createdAt: last.createdAt, id: last.id))
                }
                page.append(row)
            }
            guard rows.count == batch, let last = rows.last else { return (page, nil) }
            cursor.after = ListPosition(createdAt: last.createdAt, id: last.id)
        }
        return (page, cursor.after)
    }
}
