import Foundation
import Synchronization
import TacitCore
import TacitStore

/// Sends and conversions per application and destination prefix, and the blocks they lead to
/// (docs/fraud.md#prefix-blocks). Every start is judged here, in memory: the counts this
/// instance made and has not written yet, added to the window's sums over every instance as
/// last read from the store. `flush` writes the new counts in one transaction about once a
/// second and reads the sums and blocks back in the same one, so instances sharing a store
/// judge on each other's traffic within about a second, and a create adds no store round trip.
/// A block is written to the store at once when it is decided. Mobile networks named by receipts
/// are counted and blocked the same way, under keys no digit prefix can take (`net:23410`), and a
/// start is judged against the network its range was last reported on (docs/fraud.md#mobile-networks).
actor PrefixLedger {
    /// Counts are kept per minute, over the last hour.
    static let bucketLength: TimeInterval = 60
    static let windowBuckets: Int64 = 60
    static let flushInterval: TimeInterval = 1
    /// A prefix is the country code and the next digits, this many in all.
    static let depths = 4...8
    /// A block that ended longer ago than this no longer makes the next one longer.
    static let repeatMemory: TimeInterval = 7 * 86_400
    /// What a mobile network's key starts with: its MCC and MNC follow (`net:23410`).
    static let networkMark = "net:"

    struct Tally: Sendable, Equatable {
        var sends = 0
        var conversions = 0

        static func + (lhs: Tally, rhs: Tally) -> Tally {
            Tally(sends: lhs.sends + rhs.sends, conversions: lhs.conversions + rhs.conversions)
        }

        /// Added in place: a table's entry is then found once, not once to read and once to write.
        static func += (lhs: inout Tally, rhs: Tally) {
            lhs.sends += rhs.sends
            lhs.conversions += rhs.conversions
        }
    }

    /// What a start's number meets: nothing, or a block (`isNew` when this start decided it).
    enum Verdict: Sendable, Equatable {
        case allowed
        case blocked(PrefixBlock, isNew: Bool)
    }

    private struct Row: Hashable {
        let application: String, prefix: String, bucket: Int64
    }

    /// A send or a conversion not yet counted: its number, application and minute.
    private struct Arrival: Sendable {
        enum Kind: Sendable {
            case sent
            /// With the mobile network a receipt named for the verification's code, if one did.
            case converted(network: String?)
        }

        let kind: Kind, e164: String, application: String, bucket: Int64
    }

    let store: any PrefixLedgerStore
    let clock: any TacitClock
    /// The window's sums per application and prefix, and per application, as last read back.
    private var stored: [String: [String: Tally]] = [:]
    private var storedTotals: [String: Tally] = [:]
    /// When `stored` was read: sums older than a bucket are not trusted (a flush that fell behind).
    private var storedAt = Date.distantPast
    /// Counts not in `stored` yet (not written, or written by a flush still in flight), by bucket,
    /// so those that leave the window stop counting whether or not a flush came since.
    private var unwritten: [String: [String: [Int64: Tally]]] = [:]
    private var unwrittenTotals: [String: [Int64: Tally]] = [:]
    /// The counts not written yet, by bucket, as the next flush writes them.
    private var pending: [Row: Tally] = [:]
    /// Every application's blocks, ended ones too while they count toward a repeat.
    private var blocks: [String: [String: PrefixBlock]] = [:]
    private var flushing = false
    private var prunedBefore: Int64 = .min
    /// Each application's latest sends made here, as their prefixes, and how many of those not
    /// converted fall in each prefix: the share a prefix takes of what the application sends now
    /// and nobody converts.
    private var recent: [String: RecentSends] = [:]
    /// Each application's latest sends whose receipts named a network, as that network's key: the
    /// share a network takes of the sends receipts placed and nobody converted.
    private var recentNetworks: [String: RecentSends] = [:]
    /// Each application's ranges, by their deepest prefix, and the network receipts last named for each.
    private var ranges: [String: NetworkRanges] = [:]
    /// Sends and conversions since the ledger last ran: each is noted here under a lock rather
    /// than by a hop onto the actor, which every send and every right code would otherwise wait
    /// its turn for. Everything that reads or writes the counts takes them in first
    /// (`countArrivals`), so none is missed.
    private let arrivals = Mutex<[Arrival]>([])

    init(store: any PrefixLedgerStore, clock: any TacitClock) {
        self.store = store
        self.clock = clock
    }

    /// The prefixes of an E.164 number, deepest first: `+447700900123` → `44770090` … `4477`.
    static func prefixes(of e164: String) -> [String] {
        let digits = e164.utf8.dropFirst()
        guard e164.hasPrefix("+"), digits.count >= depths.lowerBound else { return [] }
        return depths.reversed().compactMap { depth in
            depth <= digits.count ? String(decoding: digits.prefix(depth), as: UTF8.self) : nil
        }
    }

    /// The ledger key of a mobile network's MCC and MNC: `23410` → `net:23410`.
    static func networkKey(_ network: String) -> String { networkMark + network }

    /// Whether a ledger key is a mobile network's rather than a digit prefix.
    static func isNetwork(_ key: String) -> Bool { key.hasPrefix(networkMark) }

    /// Counts a code handed to a provider for `e164`, in the minute it was sent.
    nonisolated func sent(_ e164: String, application: String) {
        note(.sent, e164, application)
    }

    /// Counts a conversion: a code checked right, or a silent success; for `network` too (its MCC
    /// and MNC) when a receipt said the verification's code went to it.
    nonisolated func converted(_ e164: String, application: String, network: String? = nil) {
        note(.converted(network: network), e164, application)
    }

    private nonisolated func note(_ kind: Arrival.Kind, _ e164: String, _ application: String) {
        let arrival = Arrival(kind: kind, e164: e164, application: application, bucket: Self.bucket(clock.now()))
        arrivals.withLock { $0.append(arrival) }
    }

    /// Counts the sends and conversions noted since the last call, in the order they were noted.
    private func countArrivals() {
        let taken = arrivals.withLock { arrivals in
            defer { arrivals.removeAll(keepingCapacity: true) }
            return arrivals
        }
        for arrival in taken {
            let prefixes = Self.prefixes(of: arrival.e164)
            switch arrival.kind {
            case .sent:
                count(prefixes, arrival.application, Tally(sends: 1), bucket: arrival.bucket)
                recent[arrival.application, default: RecentSends()].add(arrival.e164, prefixes: prefixes)
            case .converted(let network):
                count(prefixes, arrival.application, Tally(conversions: 1), bucket: arrival.bucket)
                recent[arrival.application]?.converted(arrival.e164)
                if let network {
                    count([Self.networkKey(network)], arrival.application, Tally(conversions: 1),
                          bucket: arrival.bucket, totals: false)
                    recentNetworks[arrival.application]?.converted(arrival.e164)
                }
            }
        }
    }

    /// Learns from a receipt that named `network` (MCC and MNC) for a message to `e164`: the
    /// number's range is served by it now. `isNewSend` when no receipt named a network for that
    /// message before: it then counts as a send on the network, and as a conversion too when
    /// `converted` (its verification converted before the receipt came, when no network was known).
    /// The send was counted under the number's prefixes when it went, so not again here.
    func reported(_ network: String, for e164: String, application: String, isNewSend: Bool, converted: Bool = false) {
        countArrivals()
        let key = Self.networkKey(network)
        if let range = Self.prefixes(of: e164).first {
            ranges[application, default: NetworkRanges()].learn(key, for: range)
        }
        guard isNewSend else { return }
        count([key], application, Tally(sends: 1, conversions: converted ? 1 : 0), totals: false)
        recentNetworks[application, default: RecentSends()].add(e164, prefixes: [key])
        if converted { recentNetworks[application]?.converted(e164) }
    }

    /// The network receipts last named for the range of `e164`, as its ledger key.
    func network(of e164: String, application: String) -> String? {
        Self.prefixes(of: e164).first.flatMap { ranges[application]?.network(of: $0) }
    }

    /// Adds `tally` to each of `prefixes` in `bucket` (the current minute when nil), and to the
    /// application's totals unless `totals` is false: a network's send or conversion was counted
    /// there already, under the number's prefixes.
    private func count(_ prefixes: [String], _ application: String, _ tally: Tally, bucket: Int64? = nil,
                       totals: Bool = true) {
        guard !prefixes.isEmpty else { return }
        let bucket = bucket ?? Self.bucket(clock.now())
        for prefix in prefixes {
            pending[Row(application: application, prefix: prefix, bucket: bucket), default: Tally()] += tally
            unwritten[application, default: [:]][prefix, default: [:]][bucket, default: Tally()] += tally
        }
        guard totals else { return }
        unwrittenTotals[application, default: [:]][bucket, default: Tally()] += tally
    }

    /// The buckets of `counts` still in the window at `now`, summed.
    private static func windowed(_ counts: [Int64: Tally]?, now: Date) -> Tally {
        let start = bucket(now) - windowBuckets + 1
        return counts?.reduce(Tally()) { $1.key >= start ? $0 + $1.value : $0 } ?? Tally()
    }

    private func isStoredFresh(_ now: Date) -> Bool { now.timeIntervalSince(storedAt) < Self.bucketLength }

    /// The window's figures for one prefix of the application, and its baseline.
    func tally(_ prefix: String, application: String) -> Tally {
        countArrivals()
        let now = clock.now()
        let read = isStoredFresh(now) ? stored[application]?[prefix] ?? Tally() : Tally()
        return read + Self.windowed(unwritten[application]?[prefix], now: now)
    }

    /// The application's conversion over the window, nil while it has too few sends to say.
    func baseline(application: String) -> Double? {
        countArrivals()
        let now = clock.now()
        let read = isStoredFresh(now) ? storedTotals[application] ?? Tally() : Tally()
        let total = read + Self.windowed(unwrittenTotals[application], now: now)
        guard total.sends >= PrefixRule.baselineSends else { return nil }
        return min(1, Double(total.conversions) / Double(total.sends))
    }

    /// Judges a start for `e164` at `rule`'s thresholds: a block in force on any of its prefixes
    /// refuses it; else the deepest prefix the rule fires on is blocked now, so the people at
    /// the shallower prefixes around it are not. A new block is written to the store at once.
    /// `deciding: false` only looks for a block in force (a test number's start). A number whose
    /// range receipts placed on a mobile network meets that network's block, and its rule after
    /// the prefixes' (docs/fraud.md#mobile-networks).
    func judge(_ e164: String, application: String, rule: PrefixRule, deciding: Bool = true) async -> Verdict {
        countArrivals()
        let now = clock.now()
        let prefixes = Self.prefixes(of: e164)
        let held = blocks[application] ?? [:]
        for prefix in prefixes {
            if let block = held[prefix], block.isActive(at: now) { return .blocked(block, isNew: false) }
        }
        let network = prefixes.first.flatMap { ranges[application]?.network(of: $0) }
        if let network, let block = held[network], block.isActive(at: now) { return .blocked(block, isNew: false) }
        guard deciding else { return .allowed }
        let baseline = baseline(application: application)
        let shares = recent[application] ?? RecentSends()
        for (depth, candidate) in prefixes.enumerated() {
            if let pardon = held[candidate]?.pardonedUntil, pardon > now { continue }
            let candidateFigures = unexplained(candidate, application: application, held: held, now: now)
            guard let fired = rule.fires(sends: candidateFigures.sends, conversions: candidateFigures.conversions,
                                         baseline: baseline, recentShare: shares.share(of: candidate)) else { continue }
            let (prefix, figures) = narrowest(prefixes[..<depth], within: candidateFigures, application: application,
                                              held: held, now: now) ?? (candidate, candidateFigures)
            return .blocked(await block(prefix, rule: fired, figures: figures, baseline: baseline,
                                        application: application, held: held, now: now), isNew: true)
        }
        if let network, (held[network]?.pardonedUntil ?? .distantPast) <= now {
            let figures = tally(network, application: application)
            if let fired = rule.fires(sends: figures.sends, conversions: figures.conversions, baseline: baseline,
                                      recentShare: recentNetworks[application]?.share(of: network) ?? 1) {
                return .blocked(await block(network, rule: PrefixRule.onNetwork(fired), figures: figures,
                                            baseline: baseline, application: application, held: held, now: now),
                                isNew: true)
            }
        }
        return .allowed
    }

    /// Blocks `prefix` (or a network's key) now, for longer when it was blocked before, and
    /// writes the block to the store.
    private func block(_ prefix: String, rule: String, figures: Tally, baseline: Double?, application: String,
                       held: [String: PrefixBlock], now: Date) async -> PrefixBlock {
        let previous = held[prefix].flatMap { $0.strikes > 0 && $0.blockedUntil > now.addingTimeInterval(
            -Self.repeatMemory) ? $0.strikes : nil } ?? 0
        let block = PrefixBlock(applicationId: application, prefix: prefix, rule: rule, blockedAt: now,
                                blockedUntil: now.addingTimeInterval(PrefixRule.duration(strikes: previous + 1)),
                                strikes: previous + 1, sends: figures.sends, conversions: figures.conversions,
                                baseline: baseline)
        blocks[application, default: [:]][prefix] = block
        // Kept here whatever the store says: this instance holds the block either way, and
        // the next flush reads back what the store kept.
        try? await store.setPrefixBlock(block)
        return block
    }

    /// The deepest of `deeper` (the number's prefixes under one the rule fired on) that holds at
    /// least half of its unconverted sends and no more conversions: the range under attack,
    /// when the shallower prefix fired only because a country's real users added to it.
    private func narrowest(_ deeper: ArraySlice<String>, within figures: Tally, application: String,
                           held: [String: PrefixBlock], now: Date) -> (String, Tally)? {
        let unconverted = figures.sends - figures.conversions
        for prefix in deeper where (held[prefix]?.pardonedUntil ?? .distantPast) <= now {
            let inner = unexplained(prefix, application: application, held: held, now: now)
            if 2 * (inner.sends - inner.conversions) >= unconverted, inner.conversions <= figures.conversions {
                return (prefix, inner)
            }
        }
        return nil
    }

    /// The prefix's figures without those of the blocked or pardoned prefixes under it: their
    /// sends are judged already, so an attack blocked deep inside a country's range doesn't
    /// block the people at the shallower prefixes around it.
    private func unexplained(_ prefix: String, application: String, held: [String: PrefixBlock], now: Date) -> Tally {
        var figures = tally(prefix, application: application)
        let judged = held.values.filter { block in
            block.prefix.count > prefix.count && block.prefix.hasPrefix(prefix)
                && (block.isActive(at: now) || (block.pardonedUntil ?? .distantPast) > now)
        }.map(\.prefix)
        for inner in judged where !judged.contains(where: { $0 != inner && inner.hasPrefix($0) }) {
            let explained = tally(inner, application: application)
            figures.sends -= explained.sends
            figures.conversions -= explained.conversions
        }
        return figures
    }

    /// Forgets a block this instance holds, once an operator has lifted it in the store.
    func lifted(_ prefix: String, application: String, pardonUntil: Date) {
        guard var block = blocks[application]?[prefix] else { return }
        block.blockedUntil = min(block.blockedUntil, clock.now())
        block.strikes = 0
        block.pardonedUntil = pardonUntil
        blocks[application]?[prefix] = block
    }

    /// Writes the counts not written yet and reads back the window's sums and the blocks.
    /// A store that fails keeps the counts for the next flush.
    func flush() async {
        guard !flushing else { return }
        countArrivals()
        flushing = true
        defer { flushing = false }
        let now = clock.now()
        let current = Self.bucket(now)
        let windowStart = current - Self.windowBuckets + 1
        let deltas = pending.map { row, tally in
            PrefixCount(applicationId: row.application, prefix: row.prefix, bucket: row.bucket, sends: tally.sends,
                        conversions: tally.conversions)
        }
        pending = [:]
        let prune = windowStart > prunedBefore ? windowStart : nil
        guard let snapshot = try? await store.flushPrefixCounts(
            deltas, windowStart: windowStart, pruneBefore: prune,
            blocksSince: now.addingTimeInterval(-Self.repeatMemory), now: now) else {
            for delta in deltas {
                let row = Row(application: delta.applicationId, prefix: delta.prefix, bucket: delta.bucket)
                pending[row, default: Tally()] += Tally(sends: delta.sends, conversions: delta.conversions)
            }
            return
        }
        if let prune { prunedBefore = prune }
        storedAt = now
        stored = [:]
        storedTotals = [:]
        for sum in snapshot.totals {
            let tally = Tally(sends: sum.sends, conversions: sum.conversions)
            stored[sum.applicationId, default: [:]][sum.prefix] = tally
            // Every counted number has exactly one prefix of the shallowest depth.
            if sum.prefix.utf8.count == Self.depths.lowerBound {
                storedTotals[sum.applicationId, default: Tally()] += tally
            }
        }
        // What was counted while the flush was in flight is all that is not stored yet.
        unwritten = [:]
        unwrittenTotals = [:]
        for (row, tally) in pending {
            unwritten[row.application, default: [:]][row.prefix, default: [:]][row.bucket, default: Tally()] += tally
            if row.prefix.utf8.count == Self.depths.lowerBound {
                unwrittenTotals[row.application, default: [:]][row.bucket, default: Tally()] += tally
            }
        }
        var read: [String: [String: PrefixBlock]] = [:]
        for block in snapshot.blocks { read[block.applicationId, default: [:]][block.prefix] = block }
        // A block decided here during the flush is not in what was read: keep the newer of the two.
        for (application, held) in blocks {
            for (prefix, block) in held where block.blockedAt > (read[application]?[prefix]?.blockedAt ?? .distantPast)
                && block.blockedAt >= now {
                read[application, default: [:]][prefix] = block
            }
        }
        blocks = read
    }

    /// Flushes about once a second until cancelled.
    func run() async {
        var next = clock.now()
        while !Task.isCancelled {
            next = max(next.addingTimeInterval(Self.flushInterval), clock.now())
            do { try await clock.sleep(until: next) } catch { return }
            await flush()
        }
    }

    static func bucket(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / bucketLength).rounded(.down))
    }
}
