import Foundation
import Testing
import TacitCore
import TacitStore
import TacitTesting

/// The insights part of the store contract, on every store: rollups written with the
/// changes they count and summed back, and the list's keyset pages.
@Suite("Store contract: insights")
struct InsightStoreContractTests {
    typealias Kind = StoreContractTests.Kind
    static let now = StoreContractTests.now

    static func verification(_ id: String, _ number: String, region: String?, clientRef: String? = nil,
                             workflow: [Channel] = [.sms], at: Date = now) -> Verification {
        var v = StoreContractTests.verification(id, number)
        v = Verification(id: id, phoneNumber: number,
                         options: VerificationOptions(workflow: workflow, clientRef: clientRef),
                         clientTokenHash: [7, 7], createdAt: at, state: v.state)
        v.workflow[0].status = .active
        v.workflow[0].startedAt = at
        v.region = region
        v.numberPrefix = region == nil ? nil : String(number.prefix(region == "GB" ? 6 : 6))
        return v
    }

    /// Inserts `v` counting its start, as the runner does.
    static func create(_ v: Verification, in store: any VerificationStore, at: Date = now) async throws {
        let rollups = InsightTally.deltas(from: nil, to: v, events: [], at: at)
        _ = try await store.insert(v, events: [], outbox: [], sends: [], rollups: rollups, at: at, idempotency: nil)
    }

    /// Applies `change` to `id` at `at`, counting what it changed, as the runner does.
    static func change(_ id: String, in store: any VerificationStore, at: Date,
                       _ change: @escaping @Sendable (inout Verification) -> Void) async throws {
        _ = try await store.update(id: id, at: at) { v in
            let before = v
            change(&v)
            return StoreChange((), rollups: InsightTally.deltas(from: before, to: v, events: [], at: at))
        }
    }

    static func completed(_ v: inout Verification, at: Date) {
        var machine = WorkflowMachine(v, now: at)
        _ = machine.handle(.approve)
        v = machine.verification
    }

    @Test("rollups written with each change sum to the history's figures", arguments: Kind.allCases)
    func summaryFigures(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        let app = Verification.defaultApplication
        try await Self.create(Self.verification("a", "+447400123456", region: "GB"), in: store)
        try await Self.create(Self.verification("b", "+447400123457", region: "GB"), in: store)
        try await Self.create(Self.verification("c", "+33612345678", region: "FR", workflow: [.voice]), in: store)
        let sent = Self.now.addingTimeInterval(1)
        try await Self.change("a", in: store, at: sent) {
            $0.acceptedSends.append(AcceptedSend(step: 0, channel: .sms, provider: "twilio", price: "0.0079",
                                                 currency: "USD", priceSource: .table))
        }
        try await Self.change("b", in: store, at: sent) {
            $0.acceptedSends.append(AcceptedSend(step: 0, channel: .sms, provider: "vonage", price: "0.03330000",
                                                 currency: "EUR", priceSource: .receipt))
        }
        // A receipt's price replaces the table's: only the spend moves, by the difference.
        try await Self.change("a", in: store, at: sent) { $0.acceptedSends[0].price = "-0.00750" }
        try await Self.change("a", in: store, at: Self.now.addingTimeInterval(12)) { Self.completed(&$0, at: Self.now.addingTimeInterval(12)) }
        // An hour later: another row for the same keys.
        try await Self.change("b", in: store, at: Self.now.addingTimeInterval(3600)) {
            Self.completed(&$0, at: Self.now.addingTimeInterval(3600))
        }
        let from = RollupDelta.hour(of: Self.now), to = from + 7200
        // The channel rows are the totals: every count has a channel, the empty one when it named none.
        let all = try await store.rollupSums(application: app, fromHour: from, toHour: to, grouping: .dimension(.channel))
        let counts = all.filter { $0.currency.isEmpty }.reduce(into: InsightCounts()) { $0 += $1.counts }
        #expect(counts.starts == 3)
        #expect(counts.sends == 2)
        #expect(counts.conversions == 2)
        #expect(counts.histogram[InsightCounts.bucket(12)] == 1)
        #expect(counts.histogram[InsightCounts.bucket(3600)] == 1)
        let spend = Dictionary(all.filter { !$0.currency.isEmpty }.map { ($0.currency, $0.counts.spendMicros) },
                               uniquingKeysWith: +)
        #expect(spend == ["USD": 7500, "EUR": 33300])

        let byCountry = try await store.rollupSums(application: app, fromHour: from, toHour: to,
                                                   grouping: .dimension(.country))
        let starts = Dictionary(byCountry.filter { $0.currency.isEmpty }.map { ($0.key, $0.counts.starts) },
                                uniquingKeysWith: +)
        #expect(starts == ["GB": 2, "FR": 1])
        let byProvider = try await store.rollupSums(application: app, fromHour: from, toHour: to,
                                                    grouping: .dimension(.provider))
        let conversions = Dictionary(byProvider.filter { $0.currency.isEmpty }.map { ($0.key, $0.counts.conversions) },
                                     uniquingKeysWith: +)
        #expect(conversions == ["twilio": 1, "vonage": 1])
        let byDay = try await store.rollupSums(application: app, fromHour: from, toHour: to, grouping: .day)
        #expect(Set(byDay.map(\.key)) == [InsightGrouping.dayKey(from)])
        let firstHour = try await store.rollupSums(application: app, fromHour: from, toHour: from + 3600,
                                                   grouping: .dimension(.channel))
        let sms = firstHour.filter { $0.currency.isEmpty && $0.key == "sms" }.reduce(into: InsightCounts()) { $0 += $1.counts }
        #expect(sms.starts == 2)
        #expect(sms.conversions == 1, "the conversion an hour later is in the next hour's rows")
        let other = try await store.rollupSums(application: "other", fromHour: from, toHour: to,
                                               grouping: .dimension(.channel))
        #expect(other.isEmpty)
    }

    @Test("the list's pages follow (created, id) newest first, with its filters", arguments: Kind.allCases)
    func listPages(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        for index in 0..<6 {
            let at = Self.now.addingTimeInterval(Double(index / 2))
            var v = Self.verification("v\(index)", "+4474001234\(50 + index)", region: index == 4 ? "FR" : "GB",
                                      clientRef: "r\(index % 2)", at: at)
            if index == 5 { v.applicationId = "other" }
            try await Self.create(v, in: store, at: at)
        }
        var query = VerificationListQuery(application: Verification.defaultApplication)
        var seen: [String] = []
        repeat {
            let page = try await store.verificationPage(query, limit: 2)
            seen += page.map(\.id)
            guard page.count == 2, let last = page.last else { break }
            query.after = ListPosition(createdAt: last.createdAt, id: last.id)
        } while true
        #expect(seen == ["v4", "v3", "v2", "v1", "v0"])
        let french = try await store.verificationPage(VerificationListQuery(application: "default", region: "FR"), limit: 9)
        #expect(french.map(\.id) == ["v4"])
        let odd = try await store.verificationPage(VerificationListQuery(application: "default", clientRef: "r1"), limit: 9)
        #expect(odd.map(\.id) == ["v3", "v1"])
        let window = VerificationListQuery(application: "default", from: Self.now.addingTimeInterval(1),
                                           to: Self.now.addingTimeInterval(2))
        #expect(try await store.verificationPage(window, limit: 9).map(\.id) == ["v3", "v2"])
        let read = try #require(try await store.verification(id: "v4"))
        #expect(read.region == "FR", "the region reads back from the record")
    }

    @Test("a refused start's blocked count is added alone, by channel, region and prefix, beside the changes' rows",
          arguments: Kind.allCases)
    func refusedStartCounts(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        let app = Verification.defaultApplication
        try await Self.create(Self.verification("a", "+447400123456", region: "GB"), in: store)
        for _ in 0..<2 {
            try await store.addRollups(InsightTally.refusedStart(channel: .sms, region: "GB", prefix: "+44909",
                                                                 at: Self.now), application: app)
        }
        try await store.addRollups(InsightTally.refusedStart(channel: nil, region: "FR", prefix: "+33810",
                                                             at: Self.now), application: "other")
        let from = RollupDelta.hour(of: Self.now), to = from + 3600
        func counts(_ dimension: InsightDimension) async throws -> [String: InsightCounts] {
            let sums = try await store.rollupSums(application: app, fromHour: from, toHour: to,
                                                  grouping: .dimension(dimension))
            return sums.reduce(into: [:]) { $0[$1.key, default: InsightCounts()] += $1.counts }
        }
        let byPrefix = try await counts(.prefix)
        #expect(byPrefix["+44909"]?.blocked == 2 && byPrefix["+44909"]?.starts == 0)
        #expect(byPrefix["+44740"]?.starts == 1 && byPrefix["+44740"]?.blocked == 0)
        let all = try await counts(.channel).values.reduce(into: InsightCounts()) { $0 += $1 }
        #expect(all.blocked == 2 && all.starts == 1)
        #expect(try await counts(.country)["GB"]?.blocked == 2)
        #expect(try await counts(.channel)["sms"]?.blocked == 2)
        #expect(try await counts(.provider).isEmpty, "a refused start has no provider")
        let other = try await store.rollupSums(application: "other", fromHour: from, toHour: to,
                                               grouping: .dimension(.channel))
        #expect(other.map(\.key) == [""] && other.first?.counts.blocked == 1, "no channel named: the empty key")
    }

    @Test("a verification of an address alone counts with no region or prefix and reads back", arguments: Kind.allCases)
    func addressAlone(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        var options = VerificationOptions(workflow: [.email])
        options.emailAddress = "a@example.com"
        var v = Verification(id: "e", phoneNumber: "", options: options, clientTokenHash: [7], createdAt: Self.now)
        v.workflow[0].status = .active
        v.workflow[0].startedAt = Self.now
        try await Self.create(v, in: store)
        let from = RollupDelta.hour(of: Self.now), to = from + 3600
        let byChannel = try await store.rollupSums(application: "default", fromHour: from, toHour: to,
                                                   grouping: .dimension(.channel))
        #expect(byChannel.map(\.key) == ["email"] && byChannel.first?.counts.starts == 1)
        let byCountry = try await store.rollupSums(application: "default", fromHour: from, toHour: to,
                                                   grouping: .dimension(.country))
        #expect(byCountry.map(\.key) == [""])
        let page = try await store.verificationPage(VerificationListQuery(application: "default"), limit: 9)
        #expect(page.map(\.id) == ["e"] && page.first?.emailAddress == "a@example.com" && page.first?.region == nil)
    }

    @Test("receipts' counts and a send's acceptance time and receipt are kept and read back", arguments: Kind.allCases)
    func receipts(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        try await Self.create(Self.verification("a", "+447400123456", region: "GB"), in: store)
        let sent = Self.now.addingTimeInterval(1)
        try await Self.change("a", in: store, at: sent) {
            $0.acceptedSends.append(AcceptedSend(step: 0, channel: .sms, provider: "vonage", acceptedAt: sent))
        }
        try await Self.change("a", in: store, at: sent.addingTimeInterval(25)) {
            $0.acceptedSends[0].receipt = .delivered
        }
        let read = try #require(try await store.verification(id: "a"))
        #expect(read.acceptedSends.first?.acceptedAt == sent)
        #expect(read.acceptedSends.first?.receipt == .delivered)
        let from = RollupDelta.hour(of: Self.now), to = from + 3600
        for (from, to) in [(from, to), (RollupDelta.day(of: from), RollupDelta.day(of: from) + 86400)] {
            let sums = try await store.rollupSums(application: "default", fromHour: from, toHour: to,
                                                  grouping: .dimension(.provider))
            let vonage = sums.filter { $0.key == "vonage" }.reduce(into: InsightCounts()) { $0 += $1.counts }
            #expect(vonage.sends == 1 && vonage.delivered == 1 && vonage.undelivered == 0)
            #expect(vonage.deliveryHistogram[InsightCounts.bucket(25)] == 1)
        }
    }
}
