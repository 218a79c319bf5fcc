import Foundation
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// The automatic prefix blocks' decisions and durations (docs/fraud.md#prefix-blocks), on the
/// ledger itself with a ManualClock and the in-memory store.
@Suite("Fraud: prefix ledger", .timeLimit(.minutes(1)))
struct FraudPrefixLedgerTests {
    static let standard = PrefixRule.at(.standard)!
    static let app = "app_1"

    /// A number of the attacked range: one hundred-block each, all under `44770090`.
    static func attack(_ index: Int) -> String { "+44770090" + String(format: "%04d", index * 7 % 10_000) }
    /// Numbers of a range whose people convert.
    static func legit(_ index: Int) -> String { "+336123" + String(format: "%05d", index * 37) }

    /// `count` legitimate sends, most of them converted, so the application has a baseline.
    static func converting(_ ledger: PrefixLedger, count: Int = 40) async {
        for index in 0..<count {
            ledger.sent(legit(index), application: app)
            if index % 10 < 8 { ledger.converted(legit(index), application: app) }
        }
    }

    @Test("the attacked range is blocked at its deepest prefix after 10 unconverted sends; a converting range and the country's other prefixes are not")
    func attackBlockedConvertingNot() async throws {
        let clock = ManualClock()
        let ledger = PrefixLedger(store: InMemoryStore(), clock: clock)
        await Self.converting(ledger)
        for index in 0..<9 {
            #expect(await ledger.judge(Self.attack(index), application: Self.app, rule: Self.standard) == .allowed)
            ledger.sent(Self.attack(index), application: Self.app)
        }
        #expect(await ledger.judge(Self.attack(9), application: Self.app, rule: Self.standard) == .allowed)
        ledger.sent(Self.attack(9), application: Self.app)
        guard case .blocked(let block, true) = await ledger.judge(Self.attack(10), application: Self.app,
                                                                   rule: Self.standard) else {
            Issue.record("the tenth unconverted send did not block the range")
            return
        }
        #expect(block.prefix == "44770090" && block.rule == "prefix_volume" && block.strikes == 1)
        #expect(block.sends == 10 && block.conversions == 0 && block.baseline == 0.64, "32 conversions of 50 sends, the attack's included")
        #expect(block.blockedUntil.timeIntervalSince(block.blockedAt) == 3_600)
        // The same range again: the block in force, not a new one.
        #expect(await ledger.judge(Self.attack(11), application: Self.app, rule: Self.standard)
                == .blocked(block, isNew: false))
        // The converting range, and a number of the same country outside the attacked range.
        #expect(await ledger.judge(Self.legit(99), application: Self.app, rule: Self.standard) == .allowed)
        #expect(await ledger.judge("+447711123456", application: Self.app, rule: Self.standard) == .allowed)
        // Another application's starts to the range are its own business.
        #expect(await ledger.judge(Self.attack(12), application: "app_2", rule: Self.standard) == .allowed)
    }

    @Test("a country's users whose codes are not typed yet keep their small share of the sends and are not blocked; a range taking a large share is")
    func volumeNeedsAShare() async throws {
        let ledger = PrefixLedger(store: InMemoryStore(), clock: ManualClock())
        // 12 countries' users, 10 sends each, none converted yet: each prefix holds 1/12 of the sends.
        let countries = ["3361", "4915", "3460", "3934", "3161", "5511", "9198", "6141", "8190", "4850", "5255", "1415"]
        for round in 0..<10 {
            for country in countries {
                ledger.sent("+\(country)\(1_000_000 + round * 7_919)", application: Self.app)
            }
        }
        for country in countries {
            #expect(await ledger.judge("+\(country)2345678", application: Self.app, rule: Self.standard) == .allowed)
        }
        for index in 0..<12 { ledger.sent("+99890" + String(format: "%07d", index * 811), application: Self.app) }
        guard case .blocked(let block, true) = await ledger.judge("+998901234567", application: Self.app,
                                                                   rule: Self.standard) else {
            Issue.record("a range taking 12 of the last 100 sends without a conversion was not blocked")
            return
        }
        #expect(block.prefix == "99890" && block.rule == "prefix_volume")
    }

    @Test("the share is of the sends nobody converted: a range under a tenth of all the sends is blocked when its users never convert and the others do")
    func shareOfUnconvertedSends() async throws {
        let ledger = PrefixLedger(store: InMemoryStore(), clock: ManualClock())
        for index in 0..<10 { ledger.sent("+99890" + String(format: "%07d", index * 811), application: Self.app) }
        // 91 real users after them, each typing the code: the range keeps 9 of the last 100 sends.
        for index in 0..<91 {
            ledger.sent(Self.legit(index), application: Self.app)
            ledger.converted(Self.legit(index), application: Self.app)
        }
        guard case .blocked(let block, true) = await ledger.judge("+998901234567", application: Self.app,
                                                                   rule: Self.standard) else {
            Issue.record("a range holding every unconverted send of the last 100 was not blocked")
            return
        }
        #expect(block.prefix == "99890" && block.rule == "prefix_volume" && block.sends == 10)
        #expect(await ledger.judge(Self.legit(99), application: Self.app, rule: Self.standard) == .allowed)
    }

    @Test("when a country's prefix fires only because its users add to an attacked range's sends, the range is blocked, not the country")
    func narrowestRangeBlocked() async throws {
        let ledger = PrefixLedger(store: InMemoryStore(), clock: ManualClock())
        for index in 0..<4 { ledger.sent("+4479003" + String(format: "%05d", index * 2_111), application: Self.app) }
        for index in 0..<6 { ledger.sent("+44791120" + String(format: "%04d", index * 97), application: Self.app) }
        guard case .blocked(let block, true) = await ledger.judge("+447911209999", application: Self.app,
                                                                   rule: Self.standard) else {
            Issue.record("ten unconverted sends under 4479 blocked nothing")
            return
        }
        #expect(block.prefix == "44791120" && block.sends == 6, "\(block.prefix)")
        #expect(await ledger.judge("+447900312345", application: Self.app, rule: Self.standard) == .allowed)
    }

    @Test("a prefix with conversions below the baseline is blocked; with more than a few conversions it never is")
    func lowConversionAndManyConversions() async throws {
        let ledger = PrefixLedger(store: InMemoryStore(), clock: ManualClock())
        await Self.converting(ledger)
        for index in 0..<30 { ledger.sent("+4915112" + String(format: "%05d", index * 13), application: Self.app) }
        for index in 0..<2 { ledger.converted("+4915112" + String(format: "%05d", index * 13), application: Self.app) }
        guard case .blocked(let block, true) = await ledger.judge("+491511299999", application: Self.app,
                                                                   rule: Self.standard) else {
            Issue.record("a prefix converting 2 of 30 against a baseline of 80 % was not blocked")
            return
        }
        #expect(block.rule == "prefix_conversion" && block.prefix == "4915112")
        // Three conversions are more than standard's two: the range is used by people.
        let other = PrefixLedger(store: InMemoryStore(), clock: ManualClock())
        await Self.converting(other)
        for index in 0..<30 { other.sent("+4915112" + String(format: "%05d", index * 13), application: Self.app) }
        for index in 0..<3 { other.converted("+4915112" + String(format: "%05d", index * 13), application: Self.app) }
        #expect(await other.judge("+491511299999", application: Self.app, rule: Self.standard) == .allowed)
    }

    @Test("basic needs 30 unconverted sends, max 5; off blocks nothing")
    func levels() async throws {
        #expect(PrefixRule.at(.off) == nil)
        #expect(PrefixRule.at(.basic)?.fires(sends: 29, conversions: 0, baseline: 0.8) == nil)
        #expect(PrefixRule.at(.basic)?.fires(sends: 30, conversions: 0, baseline: 0.8) == "prefix_volume")
        #expect(PrefixRule.at(.standard)?.fires(sends: 9, conversions: 0, baseline: nil) == nil)
        #expect(PrefixRule.at(.max)?.fires(sends: 5, conversions: 0, baseline: nil) == "prefix_volume")
        #expect(PrefixRule.at(.max)?.fires(sends: 12, conversions: 2, baseline: 0.8) == "prefix_conversion")
        #expect(PrefixRule.at(.standard)?.fires(sends: 12, conversions: 2, baseline: nil) == nil)
        // On conversion, twice the unconverted evidence: sends whose codes are still being typed.
        #expect(PrefixRule.at(.standard)?.fires(sends: 21, conversions: 2, baseline: 0.8) == nil)
        #expect(PrefixRule.at(.standard)?.fires(sends: 22, conversions: 2, baseline: 0.8) == "prefix_conversion")
        // A small share of the recent sends: a country's users, however slowly they type.
        #expect(PrefixRule.at(.standard)?.fires(sends: 12, conversions: 0, baseline: 0.8, recentShare: 0.08) == nil)
        #expect(PrefixRule.at(.standard)?.fires(sends: 40, conversions: 1, baseline: 0.8, recentShare: 0.08) == nil)
        #expect(PrefixRule.at(.standard)?.fires(sends: 40, conversions: 1, baseline: 0.8, recentShare: 0.1)
                == "prefix_conversion")
    }

    @Test("a block lasts 1 h, a repeat 6 h, then 24 h, on the clock; after one ends the range sends again")
    func durationsGrow() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let ledger = PrefixLedger(store: store, clock: clock)
        var next = 0
        for expected in [3_600.0, 21_600, 86_400, 86_400] {
            await Self.converting(ledger)
            for _ in 0..<10 {
                ledger.sent(Self.attack(next), application: Self.app)
                next += 1
            }
            guard case .blocked(let block, true) = await ledger.judge(Self.attack(next), application: Self.app,
                                                                       rule: Self.standard) else {
                Issue.record("no block after \(next) sends")
                return
            }
            #expect(block.blockedUntil.timeIntervalSince(block.blockedAt) == expected)
            #expect(PrefixRule.refusal(block, now: clock.now()).retryAfter == Int(expected))
            clock.advance(by: expected - 1)
            await ledger.flush()
            #expect(await ledger.judge(Self.attack(next), application: Self.app, rule: Self.standard) != .allowed,
                    "still blocked a second before the end")
            clock.advance(by: 1)
            await ledger.flush()
            #expect(await ledger.judge(Self.attack(next), application: Self.app, rule: Self.standard) == .allowed,
                    "the range sends again once the block ends and its sends left the window")
        }
        #expect(try await store.prefixBlocks(application: Self.app).map(\.strikes) == [4])
    }

    @Test("an unblocked prefix is let through and not blocked again while it is pardoned")
    func unblock() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let ledger = PrefixLedger(store: store, clock: clock)
        for index in 0..<10 { ledger.sent(Self.attack(index), application: Self.app) }
        #expect(await ledger.judge(Self.attack(10), application: Self.app, rule: Self.standard) != .allowed)
        let manager = PrefixBlockManager(store: store, clock: clock, ledger: ledger)
        #expect(try await manager.unblock(application: Self.app, prefix: "+44770090"))
        #expect(try await !manager.unblock(application: Self.app, prefix: "+44770090"))
        #expect(await ledger.judge(Self.attack(10), application: Self.app, rule: Self.standard) == .allowed)
        await ledger.flush()
        for index in 11..<30 { ledger.sent(Self.attack(index), application: Self.app) }
        #expect(await ledger.judge(Self.attack(31), application: Self.app, rule: Self.standard) == .allowed)
        #expect(try await manager.list(application: Self.app).isEmpty)
    }

    @Test("a send and a conversion count in the minute they were made, however late the ledger takes them in")
    func countedInTheirMinute() async {
        let clock = ManualClock()
        let ledger = PrefixLedger(store: InMemoryStore(), clock: clock)
        ledger.sent(Self.attack(1), application: Self.app)
        ledger.converted(Self.attack(1), application: Self.app)
        clock.advance(by: 30 * 60)
        ledger.sent(Self.attack(2), application: Self.app)
        // Nothing has read the counts yet: the first two fall out of the hour's window before
        // the ledger takes them in, and only the later send is left in it.
        clock.advance(by: 31 * 60)
        #expect(await ledger.tally("44770090", application: Self.app) == PrefixLedger.Tally(sends: 1))
    }

    @Test("a flush writes the sends and conversions noted since the last one, though nothing read the counts between")
    func flushTakesNotedCounts() async {
        let clock = ManualClock()
        let store = InMemoryStore()
        let noting = PrefixLedger(store: store, clock: clock)
        let reading = PrefixLedger(store: store, clock: clock)
        noting.sent(Self.attack(1), application: Self.app)
        noting.sent(Self.attack(2), application: Self.app)
        noting.converted(Self.attack(2), application: Self.app)
        await noting.flush()
        await reading.flush()
        #expect(await reading.tally("44770090", application: Self.app) == PrefixLedger.Tally(sends: 2, conversions: 1))
    }
}
