import Foundation
import Synchronization
import TacitCore
import TacitPhone
import TacitStore

/// Replays an application's stored verifications against the automatic rules of a protection
/// level (docs/fraud.md#backtest): the line types the level refuses and its prefix blocks,
/// decided by the very `PrefixLedger` and `PrefixRule` a live start meets. The replay runs in
/// time order on a fresh ledger in memory and a clock it moves itself: each start is judged as
/// the ledger stood at its creation; a start the policy blocks is counted and its sends and
/// conversion are never fed (they would not have happened); any other start's sends and
/// conversion are fed at their own times, so blocks begin, expire and repeat as they would
/// have. Nothing is written to the application's store.
public struct FraudBacktest: Sendable {
    /// One stored start as the replay sees it: no code, and the number only to find its prefixes.
    public struct Start: Sendable, Equatable {
        public var id: String
        public var phoneNumber: String
        public var createdAt: Date
        /// The line type the start read (`mobile`, `voip`…), nil when it read none.
        public var lineType: String?
        /// Started for one of the application's test numbers: it sent nothing and decides no block.
        public var isTestNumber: Bool
        /// When each code was handed to a provider.
        public var sends: [Date]
        /// When it completed, nil when it never did.
        public var convertedAt: Date?

        public init(id: String, phoneNumber: String, createdAt: Date, lineType: String? = nil,
                    isTestNumber: Bool = false, sends: [Date], convertedAt: Date? = nil) {
            self.id = id
            self.phoneNumber = phoneNumber
            self.createdAt = createdAt
            self.lineType = lineType
            self.isTestNumber = isTestNumber
            self.sends = sends
            self.convertedAt = convertedAt
        }

        /// The start a stored verification records: a send for each step on a channel that
        /// reaches the phone (SMS, voice, WhatsApp) that began and was not ended before anything
        /// went out (skipped, refused before the provider, or no provider would take it); a
        /// conversion when it completed. A resend is not kept on the verification, so it is not
        /// counted.
        public init(_ verification: Verification) {
            let isTest = verification.sealedTestCode != nil
            let sends = isTest ? [] : verification.workflow.compactMap { step -> Date? in
                guard Self.sendingChannels.contains(step.channel), step.status != .unused,
                      !Self.unsentReasons.contains(step.endReason ?? .other("")) else { return nil }
                return step.startedAt
            }
            let converted = verification.status == .completed
                ? verification.endedAt ?? verification.workflow.compactMap(\.endedAt).max() ?? verification.createdAt
                : nil
            self.init(id: verification.id, phoneNumber: verification.phoneNumber, createdAt: verification.createdAt,
                      lineType: verification.lineType, isTestNumber: isTest, sends: sends, convertedAt: converted)
        }

        static let sendingChannels: Set<Channel> = [.sms, .voice, .whatsapp]
        /// Step ends by which no message reached a provider that took it.
        static let unsentReasons: Set<EndReason> = [.skipped, .fixedLine, .testNumber, .geo, .noProvider,
                                                    .rateLimited, .destinationDenied, .providerError]
    }

    /// What the policy would have blocked under one prefix, by one rule.
    public struct Row: Sendable, Equatable, Encodable {
        /// 4 to 8 digits, the country code first; for rule `line_type`, the number's first four.
        public var prefix: String
        public var rule: String
        /// Starts it would have refused.
        public var starts: Int
        /// Of those, the ones that had completed: legitimate users the policy would have lost.
        public var converted: Int
        /// The sends those starts made, which the policy would have saved.
        public var sends: Int

        enum CodingKeys: String, CodingKey {
            case prefix, rule, starts, converted, sends = "sends_saved"
        }
    }

    /// What a replay found.
    public struct Report: Sendable, Equatable, Encodable {
        public var application: String
        public var level: FraudLevel
        public var since: Date
        public var until: Date
        /// Every start replayed and every send they made.
        public var starts = 0
        public var sends = 0
        /// The starts the policy would have refused, and their sends.
        public var blockedStarts = 0
        public var blockedSends = 0
        /// The refused starts that had completed.
        public var blockedConverted = 0
        /// Prefix blocks the policy would have decided (a repeat counts again).
        public var blocksDecided = 0
        /// By prefix and rule, the most refused starts first.
        public var rows: [Row] = []

        enum CodingKeys: String, CodingKey {
            case application, level, since, until, starts, sends, rows
            case blockedStarts = "blocked_starts", blockedSends = "blocked_sends"
            case blockedConverted = "blocked_converted", blocksDecided = "blocks_decided"
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            let format = ISO8601DateFormatter()
            try container.encode(application, forKey: .application)
            try container.encode(level.rawValue, forKey: .level)
            try container.encode(format.string(from: since), forKey: .since)
            try container.encode(format.string(from: until), forKey: .until)
            try container.encode(starts, forKey: .starts)
            try container.encode(sends, forKey: .sends)
            try container.encode(blockedStarts, forKey: .blockedStarts)
            try container.encode(blockedSends, forKey: .blockedSends)
            try container.encode(blockedConverted, forKey: .blockedConverted)
            try container.encode(blocksDecided, forKey: .blocksDecided)
            try container.encode(rows, forKey: .rows)
        }
    }

    public let level: FraudLevel
    /// The application's safe list: its numbers are never judged by the prefix rule, as live.
    public var safeList: [SafeListEntry]
    /// The application's test numbers: their starts decide no block, as live.
    public var testNumbers: [TestNumber]
    /// Whether numbers in the virtual range are judged (`limitVirtualRange`); live, they are not.
    public var judgesVirtualRange: Bool

    public init(level: FraudLevel, safeList: [SafeListEntry] = [], testNumbers: [TestNumber] = [],
                judgesVirtualRange: Bool = false) {
        self.level = level
        self.safeList = safeList
        self.testNumbers = testNumbers
        self.judgesVirtualRange = judgesVirtualRange
    }

    /// Verifications read from the store a page at a time.
    static let pageSize = 500

    /// Replays `application`'s verifications created in the `days` days before `now`, read from
    /// `store` (which is only read), with the application's safe list and test numbers from it.
    public static func run(store: any VerificationHistoryStore, application: String, level: FraudLevel,
                           days: Int, now: Date, judgesVirtualRange: Bool = false) async throws -> Report {
        let since = now.addingTimeInterval(-Double(days) * 86_400)
        var starts: [Start] = []
        var offset = 0
        while true {
            let page = try await store.verifications(application: application, createdFrom: since, before: now,
                                                     offset: offset, limit: pageSize)
            starts += page.filter { !$0.phoneNumber.isEmpty }.map(Start.init)
            offset += page.count
            if page.count < pageSize { break }
        }
        let safeList = try await (store as? any SafeListStore)?.safeList(application: application) ?? []
        let testNumbers = try await (store as? any TestNumberStore)?.testNumbers(application: application) ?? []
        let backtest = FraudBacktest(level: level, safeList: safeList, testNumbers: testNumbers,
                                     judgesVirtualRange: judgesVirtualRange)
        return await backtest.replay(starts, application: application, since: since, until: now)
    }

    /// One thing that happened, at its time: a start is judged, a send or a conversion fed.
    private struct Moment {
        enum Kind: Int { case start, send, conversion }
        let at: Date
        let kind: Kind
        let start: Int
    }

    /// Replays `starts` in time order on a fresh ledger; `since` and `until` only label the report.
    public func replay(_ starts: [Start], application: String, since: Date, until: Date) async -> Report {
        var moments: [Moment] = []
        for (index, start) in starts.enumerated() {
            moments.append(Moment(at: start.createdAt, kind: .start, start: index))
            moments += start.sends.map { Moment(at: $0, kind: .send, start: index) }
            if let converted = start.convertedAt {
                moments.append(Moment(at: converted, kind: .conversion, start: index))
            }
        }
        // A start comes before what it led to, even at the same instant.
        moments.sort { ($0.at, $0.kind.rawValue, $0.start) < ($1.at, $1.kind.rawValue, $1.start) }
        let clock = ReplayClock(moments.first?.at ?? since)
        let ledger = PrefixLedger(store: ProcessPrefixLedger(), clock: clock)
        var report = Report(application: application, level: level, since: since, until: until)
        var blocked: [Int: (prefix: String, rule: String)] = [:]
        var lastBucket = PrefixLedger.bucket(clock.now())
        for moment in moments {
            clock.set(moment.at)
            // The ledger reads back its sums once a minute: old buckets leave memory, as live.
            if PrefixLedger.bucket(moment.at) != lastBucket {
                lastBucket = PrefixLedger.bucket(moment.at)
                await ledger.flush()
            }
            let start = starts[moment.start]
            switch moment.kind {
            case .start:
                report.starts += 1
                report.sends += start.sends.count
                guard let refusal = await judge(start, application: application, ledger: ledger) else { continue }
                blocked[moment.start] = (refusal.prefix, refusal.rule)
                if refusal.isNew { report.blocksDecided += 1 }
            case .send:
                if blocked[moment.start] == nil { ledger.sent(start.phoneNumber, application: application) }
            case .conversion:
                if blocked[moment.start] == nil { ledger.converted(start.phoneNumber, application: application) }
            }
        }
        var rows: [String: Row] = [:]
        for (index, refusal) in blocked {
            let start = starts[index]
            let key = refusal.prefix + " " + refusal.rule
            var row = rows[key] ?? Row(prefix: refusal.prefix, rule: refusal.rule, starts: 0, converted: 0, sends: 0)
            row.starts += 1
            row.sends += start.sends.count
            if start.convertedAt != nil { row.converted += 1 }
            rows[key] = row
            report.blockedStarts += 1
            report.blockedSends += start.sends.count
            if start.convertedAt != nil { report.blockedConverted += 1 }
        }
        report.rows = rows.values.sorted { ($1.starts, $0.prefix, $0.rule) < ($0.starts, $1.prefix, $1.rule) }
        return report
    }

    /// The live start guard's fraud decisions in its order: the virtual range is let through,
    /// a refused line type is refused whatever else, a safe-listed number skips the prefix
    /// rule, and a test number's start is refused only inside a block in force.
    private func judge(_ start: Start, application: String,
                       ledger: PrefixLedger) async -> (prefix: String, rule: String, isNew: Bool)? {
        if VirtualRange.contains(start.phoneNumber), !judgesVirtualRange { return nil }
        let prefixes = PrefixLedger.prefixes(of: start.phoneNumber)
        let refused = LineTypeRules.refused(at: level)
        if let lineType = start.lineType, refused.contains(where: { $0.rawValue == lineType }) {
            return (prefixes.last ?? "-", "line_type", false)
        }
        if safeList.contains(where: { $0.matches(start.phoneNumber) }) { return nil }
        guard let rule = PrefixRule.at(level) else { return nil }
        let isTest = start.isTestNumber
            || testNumbers.contains { $0.phoneNumber == start.phoneNumber && $0.isActive(at: start.createdAt) }
        guard case .blocked(let block, let isNew) = await ledger.judge(start.phoneNumber, application: application,
                                                                       rule: rule, deciding: !isTest) else {
            return nil
        }
        return (block.prefix, block.rule, isNew)
    }
}

/// The replay's clock: it shows the time of the moment being replayed, never the wall clock.
private final class ReplayClock: TacitClock {
    private let current: Mutex<Date>

    init(_ start: Date) { current = Mutex(start) }

    func set(_ date: Date) { current.withLock { $0 = date } }
    func now() -> Date { current.withLock { $0 } }
    /// Nothing in a replay sleeps: the ledger's flush loop is never run.
    func sleep(until deadline: Date) async throws { throw CancellationError() }
}
