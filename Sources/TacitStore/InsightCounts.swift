import Foundation

/// What one rollup row counts (docs/api.md#insights): added to by each change that
/// counts, summed by the summary. The time to verify and the time to deliver are histograms
/// of the same fixed buckets, so rows add up and a median can be read from any sum of them.
public struct InsightCounts: Sendable, Equatable {
    /// A count per bucket, held inline: every change builds a few counts, and an array
    /// would be an allocation each.
    public var starts = 0
    public var sends = 0
    public var conversions = 0
    public var silentAttempts = 0
    public var silentSuccesses = 0
    public var blocked = 0
    /// Spend in millionths of the row's currency; only rows with a currency have any.
    public var spendMicros: Int64 = 0
    /// Conversions by time from start to completion, one count per bucket of `bucketBounds`.
    public var histogram = Histogram(repeating: 0)
    /// Sends whose provider's first final receipt said delivered, and said not.
    public var delivered = 0
    public var undelivered = 0
    /// Delivered sends by time from the provider's acceptance to its delivered receipt.
    public var deliveryHistogram = Histogram(repeating: 0)

    public init() {}

    /// Upper bounds, in seconds, of every bucket but the last (which has none).
    public static let bucketBounds: [Double] = [2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 300]
    public static let bucketCount = Histogram.count
    /// One more bucket than `bucketBounds` has bounds.
    public typealias Histogram = InlineArray<12, Int>

    /// The bucket a time to verify of `seconds` falls in.
    public static func bucket(_ seconds: Double) -> Int {
        bucketBounds.firstIndex { seconds <= $0 } ?? bucketBounds.count
    }

    public var isEmpty: Bool {
        guard starts == 0, sends == 0, conversions == 0, silentAttempts == 0, silentSuccesses == 0, blocked == 0,
              spendMicros == 0, delivered == 0, undelivered == 0 else { return false }
        for index in histogram.indices where histogram[index] != 0 || deliveryHistogram[index] != 0 { return false }
        return true
    }

    public static func == (lhs: InsightCounts, rhs: InsightCounts) -> Bool {
        guard lhs.starts == rhs.starts, lhs.sends == rhs.sends, lhs.conversions == rhs.conversions,
              lhs.silentAttempts == rhs.silentAttempts, lhs.silentSuccesses == rhs.silentSuccesses,
              lhs.blocked == rhs.blocked, lhs.spendMicros == rhs.spendMicros, lhs.delivered == rhs.delivered,
              lhs.undelivered == rhs.undelivered else { return false }
        for index in lhs.histogram.indices where lhs.histogram[index] != rhs.histogram[index]
            || lhs.deliveryHistogram[index] != rhs.deliveryHistogram[index] {
            return false
        }
        return true
    }

    public static func += (lhs: inout InsightCounts, rhs: InsightCounts) {
        lhs.starts += rhs.starts
        lhs.sends += rhs.sends
        lhs.conversions += rhs.conversions
        lhs.silentAttempts += rhs.silentAttempts
        lhs.silentSuccesses += rhs.silentSuccesses
        lhs.blocked += rhs.blocked
        lhs.spendMicros += rhs.spendMicros
        lhs.delivered += rhs.delivered
        lhs.undelivered += rhs.undelivered
        for index in lhs.histogram.indices {
            lhs.histogram[index] += rhs.histogram[index]
            lhs.deliveryHistogram[index] += rhs.deliveryHistogram[index]
        }
    }

    /// The median time to verify, interpolated inside the bucket that holds it; nil
    /// without conversions. The open last bucket reports its lower bound.
    public var medianSeconds: Double? { Self.median(histogram) }

    /// The median time from a provider's acceptance to its delivered receipt, read as the time to verify is.
    public var medianDeliverySeconds: Double? { Self.median(deliveryHistogram) }

    /// The median of `histogram`'s counts, interpolated inside the bucket that holds it; nil
    /// when it counts nothing. The open last bucket reports its lower bound.
    static func median(_ histogram: Histogram) -> Double? {
        var total = 0
        for index in histogram.indices { total += histogram[index] }
        guard total > 0 else { return nil }
        let half = Double(total) / 2
        var below = 0
        for index in histogram.indices where histogram[index] > 0 {
            let count = histogram[index]
            if Double(below + count) >= half {
                guard index < Self.bucketBounds.count else { return Self.bucketBounds.last }
                let lower = index == 0 ? 0 : Self.bucketBounds[index - 1]
                let upper = Self.bucketBounds[index]
                return lower + (upper - lower) * (half - Double(below)) / Double(count)
            }
            below += count
        }
        return Self.bucketBounds.last
    }
}

/// The dimensions rollups are kept by. Every count has a key under each but `provider` (a start
/// has none), so the rows of any of the others sum to the totals: no dimension of its own keeps
/// them. Databases from before keep the `all` rows they have; nothing reads them.
public enum InsightDimension: String, Sendable, CaseIterable {
    case channel, country, provider, prefix

    /// Its place among the dimensions, for the order rows are written in.
    var order: Int {
        switch self {
        case .channel: 0
        case .country: 1
        case .provider: 2
        case .prefix: 3
        }
    }
}

/// A change to one rollup row, written in the transaction of the change it counts.
public struct RollupDelta: Sendable, Equatable {
    /// How long the row's period is: an hour, or a UTC day (`RollupDelta.hourSpan`, `.daySpan`).
    public var span: Int64
    /// The start of the row's period, in seconds since 1970 (an hour's, or a day's).
    public var hour: Int64
    public var dimension: InsightDimension
    public var key: String
    /// The currency of the spend it adds; empty for a row of counts.
    public var currency: String
    public var counts: InsightCounts

    public init(span: Int64 = RollupDelta.hourSpan, hour: Int64, dimension: InsightDimension, key: String,
                currency: String = "", counts: InsightCounts) {
        self.span = span
        self.hour = hour
        self.dimension = dimension
        self.key = key
        self.currency = currency
        self.counts = counts
    }

    public static let hourSpan: Int64 = 3600
    public static let daySpan: Int64 = 86400

    /// The hour `date` falls in.
    public static func hour(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 3600).rounded(.down)) * 3600
    }

    /// The start of the UTC day `seconds` since 1970 fall in.
    public static func day(of seconds: Int64) -> Int64 {
        Int64((Double(seconds) / 86400).rounded(.down)) * 86400
    }

    /// The same delta on its day's row: each change adds to its hour's row and its day's, so
    /// a summary of many days reads a row per day and key, and hours only at its two ends.
    public var onItsDay: RollupDelta {
        var day = self
        day.span = Self.daySpan
        day.hour = Self.day(of: hour)
        return day
    }

    /// The order rows are written in, the same in every transaction, so two changes
    /// never wait on each other's row locks.
    public static func ordered(_ deltas: [RollupDelta]) -> [RollupDelta] {
        // The rollup table's key order, numbers first: two rows of one change differ in span or
        // dimension, so the strings are compared only to break a tie, and a sort of eight rows
        // stays cheap on every change.
        deltas.sorted { a, b in
            (a.span, a.hour) != (b.span, b.hour) ? (a.span, a.hour) < (b.span, b.hour) : precedesOnItsSpan(a, b)
        }
    }

    /// The order of two rows of one span and hour: by dimension, then key and currency.
    public static func precedesOnItsSpan(_ a: RollupDelta, _ b: RollupDelta) -> Bool {
        a.dimension.order != b.dimension.order ? a.dimension.order < b.dimension.order
            : (a.key, a.currency) < (b.key, b.currency)
    }
}

extension InsightCounts {
    /// The rollup table's count columns, in the order of `columnValues`.
    public static let columns = firstColumns + deliveryColumns

    /// The columns the rollup table was made with (`insights_001`).
    public static let firstColumns = ["starts", "sends", "conversions", "silent_attempts", "silent_successes",
                                      "blocked", "spend_micros"] + (0..<bucketCount).map { "b\($0)" }
    /// The columns receipts added (`insights_002`): delivered, undelivered, and the delivery histogram.
    public static let deliveryColumns = ["delivered", "undelivered"] + (0..<bucketCount).map { "d\($0)" }

    /// The counts as the values of `columns`.
    public var columnValues: [Int64] {
        var values: [Int64] = []
        values.reserveCapacity(Self.columns.count)
        forEachColumnValue { values.append($0) }
        return values
    }

    /// Calls `body` with each of `columns`' values in order, without building an array of them.
    public func forEachColumnValue(_ body: (Int64) -> Void) {
        body(Int64(starts))
        body(Int64(sends))
        body(Int64(conversions))
        body(Int64(silentAttempts))
        body(Int64(silentSuccesses))
        body(Int64(blocked))
        body(spendMicros)
        for index in histogram.indices { body(Int64(histogram[index])) }
        body(Int64(delivered))
        body(Int64(undelivered))
        for index in deliveryHistogram.indices { body(Int64(deliveryHistogram[index])) }
    }

    /// Counts read back from `columns`' values.
    public init(columnValues values: [Int64]) {
        self.init()
        guard values.count == Self.columns.count else { return }
        starts = Int(values[0])
        sends = Int(values[1])
        conversions = Int(values[2])
        silentAttempts = Int(values[3])
        silentSuccesses = Int(values[4])
        blocked = Int(values[5])
        spendMicros = values[6]
        for index in histogram.indices { histogram[index] = Int(values[7 + index]) }
        let receipts = 7 + Self.bucketCount
        delivered = Int(values[receipts])
        undelivered = Int(values[receipts + 1])
        for index in deliveryHistogram.indices { deliveryHistogram[index] = Int(values[receipts + 2 + index]) }
    }
}

extension InsightGrouping {
    /// The UTC day `seconds` since 1970 falls in, as `2026-12-01`.
    public static func dayKey(_ seconds: Int64) -> String {
        let days = Int((Double(seconds) / 86400).rounded(.down))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSince1970: Double(days) * 86400)
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
