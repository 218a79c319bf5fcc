import Foundation
import Testing
import TacitCore
import TacitStore

/// What each kind of change counts, worked out from the verification before and after it.
@Suite("Insight tally: the rollup deltas of a change")
struct InsightTallyTests {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    static func started(_ channels: [Channel]) -> Verification {
        var machine = WorkflowMachine(Verification(id: "v", phoneNumber: "+447400123456",
                                                   options: VerificationOptions(workflow: channels),
                                                   clientTokenHash: [1], createdAt: now), now: now)
        _ = machine.handle(.start(simSwapped: nil))
        var v = machine.verification
        v.region = "GB"
        v.numberPrefix = "+44740"
        return v
    }

    static func counts(_ deltas: [RollupDelta], _ dimension: InsightDimension, _ key: String,
                       span: Int64 = RollupDelta.hourSpan) -> InsightCounts {
        deltas.filter { $0.dimension == dimension && $0.key == key && $0.span == span && $0.currency.isEmpty }
            .reduce(into: InsightCounts()) { $0 += $1.counts }
    }

    @Test("a create counts a start under its first channel, its region and its prefix, hour and day: six rows")
    func start() {
        let deltas = InsightTally.deltas(from: nil, to: Self.started([.sms]), events: [], at: Self.now)
        for (dimension, key) in [(InsightDimension.channel, "sms"), (.country, "GB"), (.prefix, "+44740")] {
            #expect(Self.counts(deltas, dimension, key).starts == 1)
            #expect(Self.counts(deltas, dimension, key, span: RollupDelta.daySpan).starts == 1)
        }
        #expect(!deltas.contains { $0.dimension == .provider })
        #expect(deltas.count == 6, "the totals are the channel rows' sum: no row of their own")
        #expect(deltas == RollupDelta.ordered(deltas), "rows in the one order every transaction writes them")
    }

    @Test("a silent step that ends is an attempt, a success when it completed, under its check's provider")
    func silent() {
        let before = Self.started([.silentAuth, .sms])
        var success = before
        success.silentCheck = SilentCheckReference(step: 0, provider: "truid", reference: "c1")
        var machine = WorkflowMachine(success, now: Self.now.addingTimeInterval(3))
        _ = machine.handle(.approve)
        success = machine.verification
        let won = InsightTally.deltas(from: before, to: success, events: [], at: Self.now.addingTimeInterval(3))
        let truid = Self.counts(won, .provider, "truid")
        #expect((truid.silentAttempts, truid.silentSuccesses, truid.conversions) == (1, 1, 1))
        #expect(Self.counts(won, .channel, "silent_auth").histogram[InsightCounts.bucket(3)] == 1)

        var failed = before
        machine = WorkflowMachine(failed, now: Self.now.addingTimeInterval(60))
        _ = machine.handle(.timerFired(step: 0))
        failed = machine.verification
        let lost = Self.counts(InsightTally.deltas(from: before, to: failed, events: [], at: Self.now), .channel,
                               "silent_auth")
        #expect((lost.silentAttempts, lost.silentSuccesses, lost.conversions) == (1, 0, 0))
    }

    @Test("a blocked send counts from its fraud:blocked event")
    func blocked() {
        let v = Self.started([.sms])
        let event = EventDraft(InsightTally.blockedEvent, channel: .sms, note: "blocked")
        #expect(Self.counts(InsightTally.deltas(from: v, to: v, events: [event], at: Self.now), .channel, "sms")
            .blocked == 1)
        #expect(InsightTally.deltas(from: v, to: v, events: [], at: Self.now).isEmpty, "a change that counts nothing")
    }

    static let prices: [(String, Int64?)] = [
        ("0.0079", 7900), ("-0.00750", 7500), ("1", 1_000_000), ("0.03330000", 33300), ("12.5", 12_500_000),
        ("abc", nil), ("", nil), ("1.2.3", nil),
    ]

    @Test("prices are read as millionths, a charge's sign dropped; other text is no price",
          arguments: Self.prices)
    func micros(text: String, expected: Int64?) {
        #expect(InsightTally.micros(text) == expected)
    }

    @Test("the median interpolates inside the bucket that holds it")
    func median() {
        var counts = InsightCounts()
        #expect(counts.medianSeconds == nil)
        counts.histogram[InsightCounts.bucket(12)] = 1
        counts.histogram[InsightCounts.bucket(40)] = 1
        #expect(counts.medianSeconds == 15)
        counts.histogram[InsightCounts.bucket(12)] = 3
        let expected: Double = 10 + 10.0 / 3
        #expect(counts.medianSeconds == expected)
        var slow = InsightCounts()
        slow.histogram[InsightCounts.bucket(1000)] = 2
        #expect(slow.medianSeconds == 300)
    }

    @Test("a send's first final receipt counts it delivered, with its time since acceptance, or undelivered; once")
    func receipts() {
        var before = Self.started([.sms])
        before.acceptedSends = [AcceptedSend(step: 0, channel: .sms, provider: "vonage", acceptedAt: Self.now),
                                AcceptedSend(step: 0, channel: .sms, provider: "vonage", acceptedAt: Self.now)]
        var after = before
        after.acceptedSends[0].receipt = .delivered
        let at = Self.now.addingTimeInterval(7)
        let delivered = InsightTally.deltas(from: before, to: after, events: [], at: at)
        let byProvider = Self.counts(delivered, .provider, "vonage")
        #expect(byProvider.delivered == 1 && byProvider.undelivered == 0 && byProvider.sends == 0)
        #expect(byProvider.deliveryHistogram[InsightCounts.bucket(7)] == 1)
        #expect(byProvider.medianDeliverySeconds == 7.5)
        #expect(Self.counts(delivered, .country, "GB").delivered == 1)
        #expect(Self.counts(delivered, .country, "GB", span: RollupDelta.daySpan).delivered == 1)

        var failed = after
        failed.acceptedSends[1].receipt = .failed
        let second = InsightTally.deltas(from: after, to: failed, events: [], at: at)
        #expect(Self.counts(second, .provider, "vonage").undelivered == 1)
        #expect(Self.counts(second, .provider, "vonage").delivered == 0, "the first send's receipt counted before")
        #expect(InsightTally.deltas(from: failed, to: failed, events: [], at: at).isEmpty)
    }

    @Test("a silent check issued at a provider adds its price to the spend and counts no send")
    func silentCheckPrice() {
        let before = Self.started([.silentAuth, .sms])
        var after = before
        after.acceptedSends = [AcceptedSend(step: 0, channel: .silentAuth, provider: "truid", price: "1",
                                            currency: "API", priceSource: .receipt)]
        let deltas = InsightTally.deltas(from: before, to: after, events: [], at: Self.now)
        #expect(Self.counts(deltas, .provider, "truid").sends == 0)
        let spend = deltas.filter { $0.dimension == .provider && $0.currency == "API" && $0.span == RollupDelta.hourSpan }
        #expect(spend.map(\.counts.spendMicros) == [1_000_000])
    }
}
