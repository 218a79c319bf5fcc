import Foundation
import TacitCore
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// Mobile networks named by receipts, counted and blocked like prefixes (docs/fraud.md#mobile-networks),
/// on the ledger itself with a ManualClock and the in-memory store.
@Suite("Fraud: mobile networks", .timeLimit(.minutes(1)))
struct FraudNetworkTests {
    static let standard = PrefixRule.at(.standard)!
    static let app = "app_1"
    /// Converting users, all in the range `44791112`, on network 23410.
    static func legit(_ index: Int) -> String { "+44791112" + String(format: "%04d", index * 37) }
    /// An attack on network 23499 spread over the ranges `44791113` to `44791117`, two numbers
    /// each, so no range takes enough sends for the prefix rule.
    static func attack(_ index: Int) -> String { "+4479111\(3 + index % 5)" + String(format: "%04d", index * 101) }

    /// Ten converting users on 23410, then ten attack sends on 23499 with their receipts.
    static func traffic(_ ledger: PrefixLedger) async {
        for index in 0..<10 {
            ledger.sent(legit(index), application: app)
            await ledger.reported("23410", for: legit(index), application: app, isNewSend: true)
            ledger.converted(legit(index), application: app, network: "23410")
        }
        for index in 0..<10 {
            #expect(await ledger.judge(attack(index), application: app, rule: standard) == .allowed, "\(index)")
            ledger.sent(attack(index), application: app)
            await ledger.reported("23499", for: attack(index), application: app, isNewSend: true)
        }
    }

    @Test("a network its receipts name with ten sends and no conversion is blocked on volume; a range mapped to it is refused, another network's and an unmapped range pass")
    func networkBlockedOnVolume() async throws {
        let clock = ManualClock()
        let ledger = PrefixLedger(store: InMemoryStore(), clock: clock)
        await Self.traffic(ledger)
        #expect(await ledger.tally("net:23499", application: Self.app) == PrefixLedger.Tally(sends: 10))
        #expect(await ledger.tally("net:23410", application: Self.app) == PrefixLedger.Tally(sends: 10, conversions: 10))
        // The attacked ranges' own prefixes stay below the prefix rule: 2 sends each.
        #expect(await ledger.tally("44791113", application: Self.app) == PrefixLedger.Tally(sends: 2))
        guard case .blocked(let block, true) = await ledger.judge("+447911135555", application: Self.app,
                                                                   rule: Self.standard) else {
            Issue.record("a number in a range mapped to the attacked network was not refused")
            return
        }
        #expect(block.prefix == "net:23499" && block.rule == "network_volume" && block.strikes == 1)
        #expect(block.sends == 10 && block.conversions == 0)
        #expect(block.blockedUntil.timeIntervalSince(block.blockedAt) == 3_600)
        #expect(block.shownPrefix == "net:23499")
        #expect(PrefixRule.refusal(block, now: clock.now()).retryAfter == 3_600)
        // Every range mapped to it is refused by the block in force.
        #expect(await ledger.judge("+447911170001", application: Self.app, rule: Self.standard)
                == .blocked(block, isNew: false))
        // A test number's start (deciding nothing) meets the block too.
        #expect(await ledger.judge("+447911160002", application: Self.app, rule: Self.standard, deciding: false)
                == .blocked(block, isNew: false))
        // Another network's range, a range no receipt placed, and another application pass.
        #expect(await ledger.judge(Self.legit(50), application: Self.app, rule: Self.standard) == .allowed)
        #expect(await ledger.judge("+447911180001", application: Self.app, rule: Self.standard) == .allowed)
        #expect(await ledger.judge("+447911135555", application: "app_2", rule: Self.standard) == .allowed)
        // The block holds for its hour, then the network is judged afresh.
        clock.advance(by: 3_601)
        #expect(await ledger.judge("+447911135555", application: Self.app, rule: Self.standard) == .allowed)
    }

    @Test("a network whose users convert is not blocked: a conversion counts for the network the receipt named, one made before the receipt came too")
    func conversionsCountForTheNetwork() async throws {
        let ledger = PrefixLedger(store: InMemoryStore(), clock: ManualClock())
        ledger.sent(Self.legit(1), application: Self.app)
        await ledger.reported("23410", for: Self.legit(1), application: Self.app, isNewSend: true)
        ledger.converted(Self.legit(1), application: Self.app, network: "23410")
        // Converted before its receipt: the receipt counts the send and the conversion.
        ledger.sent(Self.legit(2), application: Self.app)
        ledger.converted(Self.legit(2), application: Self.app)
        await ledger.reported("23410", for: Self.legit(2), application: Self.app, isNewSend: true, converted: true)
        // A later receipt for the same message maps the range but counts nothing again.
        await ledger.reported("23410", for: Self.legit(2), application: Self.app, isNewSend: false)
        #expect(await ledger.tally("net:23410", application: Self.app) == PrefixLedger.Tally(sends: 2, conversions: 2))
        #expect(await ledger.network(of: Self.legit(3), application: Self.app) == "net:23410")
        // A network's counts leave the application's baseline alone: 2 sends, 2 conversions, as counted by prefix.
        #expect(await ledger.tally("4479", application: Self.app) == PrefixLedger.Tally(sends: 2, conversions: 2))

        let converting = PrefixLedger(store: InMemoryStore(), clock: ManualClock())
        await Self.traffic(converting)
        for index in 0..<3 { converting.converted(Self.attack(index), application: Self.app, network: "23499") }
        #expect(await converting.judge("+447911135555", application: Self.app, rule: Self.standard) == .allowed,
                "three conversions, more than standard's two: real people use it")
    }

    @Test("the range a receipt last named wins, and the map forgets its oldest range once full")
    func rangesBounded() {
        var ranges = NetworkRanges(limit: 2)
        ranges.learn("net:23410", for: "44791112")
        ranges.learn("net:23499", for: "44791112")
        #expect(ranges.network(of: "44791112") == "net:23499")
        ranges.learn("net:23410", for: "44791113")
        ranges.learn("net:23410", for: "44791114")
        #expect(ranges.count == 2 && ranges.network(of: "44791112") == nil)
        #expect(ranges.network(of: "44791114") == "net:23410")
    }

    @Test("a network on an event is kept as 5 or 6 digits; anything else passed as one is scrubbed")
    func networkOnEvents() {
        #expect(Redactor.redact(.mobileNetwork("23410")) == .string("23410"))
        #expect(Redactor.redact(.mobileNetwork("310260")) == .string("310260"))
        #expect(Redactor.redact(.mobileNetwork("+447911123456")) != .string("+447911123456"))
        #expect(Redactor.redact(.mobileNetwork("1234")) != .string("1234"))
    }

    @Test("a network block is listed and lifted by its key; a malformed key is refused")
    func listAndLift() async throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        let ledger = PrefixLedger(store: store, clock: clock)
        await Self.traffic(ledger)
        guard case .blocked = await ledger.judge("+447911135555", application: Self.app, rule: Self.standard) else {
            Issue.record("the network was not blocked")
            return
        }
        let manager = PrefixBlockManager(store: store, clock: clock, ledger: ledger)
        #expect(try await manager.list(application: Self.app).map(\.shownPrefix) == ["net:23499"])
        for bad in ["net:2341", "net:2341234", "net:23a10", "net:"] {
            #expect(throws: PrefixBlockManager.Refusal.self) { try PrefixBlockManager.prefix(bad) }
        }
        #expect(try await manager.unblock(application: Self.app, prefix: "net:23499"))
        #expect(await ledger.judge("+447911135555", application: Self.app, rule: Self.standard) == .allowed)
        #expect(try await manager.list(application: Self.app).isEmpty)
    }
}
