import Foundation
import TacitCore

/// Works out the rollup rows a change moves from the verification before and after it
/// and the events it records (docs/api.md#insights), whatever drove it: a start, a
/// delivery, a receipt, a check, a silent verdict, a timer. Every store writes the result in
/// the change's own transaction, so a count and the change it counts can't come apart.
public enum InsightTally {
    /// The event type fraud protection records for a send it refused.
    public static let blockedEvent = "fraud:blocked"

    /// The deltas of the change from `before` (nil for a create) to `after` at `at`,
    /// one per row, in the order rows are written.
    public static func deltas(from before: Verification?, to after: Verification, events: [EventDraft],
                              at: Date) -> [RollupDelta] {
        var rows = Rows(hour: RollupDelta.hour(of: at), region: after.region, prefix: after.numberPrefix)
        if before == nil {
            var counts = InsightCounts()
            counts.starts = 1
            rows.add(counts, channel: after.workflow.first?.channel, provider: nil)
        }
        countSends(from: before, to: after, at: at, into: &rows)
        countSilent(from: before, to: after, into: &rows)
        if before?.status ?? .pending != .completed, after.status == .completed {
            var counts = InsightCounts()
            counts.conversions = 1
            counts.histogram[InsightCounts.bucket(at.timeIntervalSince(after.createdAt))] = 1
            let step = after.workflow.lastIndex { $0.status == .completed }
            rows.add(counts, channel: step.map { after.workflow[$0].channel },
                     provider: step.flatMap { provider(of: $0, in: after) })
        }
        for event in events where event.label == blockedEvent {
            var counts = InsightCounts()
            counts.blocked = 1
            rows.add(counts, channel: event.channel, provider: nil)
        }
        return rows.deltas
    }

    /// The deltas of a start fraud protection refused before anything was stored (a premium-rate
    /// line's, docs/fraud.md#line-types): one blocked send under its first channel, if it named
    /// one, its number's region and its prefix. Written alone, as the only trace the start leaves.
    public static func refusedStart(channel: Channel?, region: String?, prefix: String?,
                                    at: Date) -> [RollupDelta] {
        var rows = Rows(hour: RollupDelta.hour(of: at), region: region, prefix: prefix)
        var counts = InsightCounts()
        counts.blocked = 1
        rows.add(counts, channel: channel, provider: nil)
        return rows.deltas
    }

    /// New sends count once each with their price (a silent check issued at a provider adds
    /// its price but is no message sent); a price that arrives later (a receipt's) moves only
    /// the spend, taking back the one it replaces. A send's first final receipt counts it
    /// delivered or undelivered, a delivered one with its time since the provider accepted it.
    private static func countSends(from before: Verification?, to after: Verification, at: Date,
                                   into rows: inout Rows) {
        let earlier = before?.acceptedSends ?? []
        for (index, send) in after.acceptedSends.enumerated() {
            var counts = InsightCounts()
            if index >= earlier.count {
                if send.channel != .silentAuth {
                    counts.sends = 1
                    rows.add(counts, channel: send.channel, provider: send.provider)
                }
                rows.spend(send, sign: 1)
                continue
            }
            let was = earlier[index]
            if was.price != send.price || was.currency != send.currency {
                rows.spend(was, sign: -1)
                rows.spend(send, sign: 1)
            }
            if was.receipt == nil, let receipt = send.receipt {
                switch receipt {
                case .delivered:
                    counts.delivered = 1
                    if let accepted = send.acceptedAt {
                        counts.deliveryHistogram[InsightCounts.bucket(max(0, at.timeIntervalSince(accepted)))] = 1
                    }
                case .failed:
                    counts.undelivered = 1
                }
                rows.add(counts, channel: send.channel, provider: send.provider)
            }
        }
    }

    /// A silent step that ends is an attempt, a success when it completed; one that was
    /// never tried (no coverage, no provider) is not.
    private static func countSilent(from before: Verification?, to after: Verification, into rows: inout Rows) {
        for (index, step) in after.workflow.enumerated() where step.channel == .silentAuth {
            let was = before.map { $0.workflow[index].status } ?? .unused
            guard was == .unused || was == .active, step.status != .unused, step.status != .active,
                  step.startedAt != nil, step.endReason != .noCoverage, step.endReason != .unavailable,
                  step.endReason != .skipped, step.endReason != .cancelled else { continue }
            var counts = InsightCounts()
            counts.silentAttempts = 1
            counts.silentSuccesses = step.status == .completed ? 1 : 0
            rows.add(counts, channel: .silentAuth, provider: provider(of: index, in: after))
        }
    }

    /// The provider that ran step `index`: its silent check's, else the last send's for it.
    static func provider(of index: Int, in verification: Verification) -> String? {
        if let check = verification.silentCheck, check.step == index { return check.provider }
        return verification.acceptedSends.last { $0.step == index }?.provider
    }

    /// The price as millionths, nil when it is not a decimal number. Providers write
    /// charges as negative amounts (`-0.00790`): the size is what it cost.
    public static func micros(_ price: String) -> Int64? {
        var text = Substring(price.trimmingCharacters(in: .whitespaces))
        if text.first == "-" || text.first == "+" { text = text.dropFirst() }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty || parts.count == 2, whole.count <= 12,
              whole.allSatisfy(\.isASCII), whole.allSatisfy(\.isNumber) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }), !(whole.isEmpty && fraction.isEmpty) else {
            return nil
        }
        let six = String(fraction.prefix(6)).padding(toLength: 6, withPad: "0", startingAt: 0)
        return (Int64(whole) ?? 0) * 1_000_000 + (Int64(six) ?? 0)
    }

    /// Merges counts per row of one change. A change moves a dozen rows at most, so they
    /// are found by a scan, not hashed under a key built for each.
    private struct Rows {
        let hour: Int64
        /// The number's region and prefix, the keys of every count of the change.
        let region: String?
        let prefix: String?
        var byRow: [RollupDelta] = []

        init(hour: Int64, region: String?, prefix: String?) {
            self.hour = hour
            self.region = region
            self.prefix = prefix
            byRow.reserveCapacity(8)
        }

        /// Each row with counts, on its hour and on its day, in the order rows are written
        /// (`RollupDelta.ordered`). The change's rows share one hour and so one day: its hour's
        /// rows come first, then its day's, each by dimension, key and currency. Only the
        /// indices of the few rows are sorted; sorting the rows themselves copied every one
        /// of them, 33 counts each, twice (`perf`: about 1 % of a create).
        var deltas: [RollupDelta] {
            let order = byRow.indices.filter { !byRow[$0].counts.isEmpty }.sorted {
                RollupDelta.precedesOnItsSpan(byRow[$0], byRow[$1])
            }
            var deltas: [RollupDelta] = []
            deltas.reserveCapacity(2 * order.count)
            for index in order { deltas.append(byRow[index]) }
            for index in order { deltas.append(byRow[index].onItsDay) }
            return deltas
        }

        /// `counts` under the row of the channel, the provider, the region and the prefix.
        mutating func add(_ counts: InsightCounts, channel: Channel?, provider: String?, currency: String = "") {
            // Every count has one key in each dimension but provider's (a start has no provider),
            // so a summary by channel, region or prefix sums to the totals without reading them apart,
            // and the totals are the channel rows' sum: a row for all would be a fifth more writes.
            add(counts, .channel, channel?.rawValue ?? "", currency)
            if let provider { add(counts, .provider, provider, currency) }
            add(counts, .country, region ?? "", currency)
            add(counts, .prefix, prefix ?? "", currency)
        }

        mutating func spend(_ send: AcceptedSend, sign: Int64) {
            guard let price = send.price, let currency = send.currency, let micros = InsightTally.micros(price) else {
                return
            }
            var counts = InsightCounts()
            counts.spendMicros = sign * micros
            add(counts, channel: send.channel, provider: send.provider, currency: currency)
        }

        private mutating func add(_ counts: InsightCounts, _ dimension: InsightDimension, _ key: String,
                                  _ currency: String) {
            if let index = byRow.firstIndex(where: {
                $0.dimension == dimension && $0.key == key && $0.currency == currency
            }) {
                byRow[index].counts += counts
            } else {
                byRow.append(RollupDelta(hour: hour, dimension: dimension, key: key, currency: currency,
                                         counts: counts))
            }
        }
    }
}
