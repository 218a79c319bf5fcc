import Foundation
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// Two instances on one PostgreSQL database share the prefix counters and blocks within a
/// flush (docs/fraud.md#prefix-blocks): each judges on the other's sends once both have
/// flushed, and a block one decides holds on the other after its next flush.
@Suite("Fraud: prefix counters across instances", .enabled(if: PostgresCluster.enabled), .timeLimit(.minutes(1)))
struct FraudPrefixTwoInstanceTests {
    static let app = "app_1"
    static func attack(_ index: Int) -> String { "+44791113" + String(format: "%04d", index * 101 % 10_000) }

    @Test("six sends on each instance block the range once both have flushed; the block reaches the other instance")
    func sharedCounters() async throws {
        let (stores, clock, first, second) = try await Self.twoLedgers()
        let rule = try #require(PrefixRule.at(.standard))
        for index in 0..<6 {
            first.sent(Self.attack(index), application: Self.app)
            second.sent(Self.attack(index + 6), application: Self.app)
        }
        #expect(await first.judge(Self.attack(20), application: Self.app, rule: rule) == .allowed)
        #expect(await second.judge(Self.attack(20), application: Self.app, rule: rule) == .allowed)
        clock.advance(by: 1)
        await first.flush()
        await second.flush()
        #expect(await second.tally("44791113", application: Self.app) == PrefixLedger.Tally(sends: 12))
        guard case .blocked(let block, true) = await second.judge(Self.attack(21), application: Self.app,
                                                                   rule: rule) else {
            Issue.record("twelve sends over two instances did not block the range")
            return
        }
        #expect(block.prefix == "44791113" && block.sends == 12)
        // The first instance holds it after its next flush, as a block in force, not a new one.
        await first.flush()
        #expect(await first.judge(Self.attack(22), application: Self.app, rule: rule)
                == .blocked(block, isNew: false))
        let stored = try await (stores[0] as? any PrefixLedgerStore)?.prefixBlocks(application: Self.app)
        #expect(stored == [block])
    }

    @Test("a network's sends reported on two instances are shared by the flush; its block reaches the other instance")
    func sharedNetworkCounts() async throws {
        let (_, clock, first, second) = try await Self.twoLedgers()
        let rule = try #require(PrefixRule.at(.standard))
        // Converting users keep every prefix of the ranges below the prefix rule.
        for index in 0..<5 {
            let legit = "+44791112" + String(format: "%04d", index * 37)
            first.sent(legit, application: Self.app)
            first.converted(legit, application: Self.app)
        }
        // Five ranges, one number each per instance, on network 23499.
        for index in 0..<5 {
            let mine = "+4479111\(3 + index)" + "0001", theirs = "+4479111\(3 + index)" + "0002"
            first.sent(mine, application: Self.app)
            await first.reported("23499", for: mine, application: Self.app, isNewSend: true)
            second.sent(theirs, application: Self.app)
            await second.reported("23499", for: theirs, application: Self.app, isNewSend: true)
        }
        #expect(await second.judge("+447911130003", application: Self.app, rule: rule) == .allowed)
        clock.advance(by: 1)
        await first.flush()
        await second.flush()
        #expect(await second.tally("net:23499", application: Self.app) == PrefixLedger.Tally(sends: 10))
        guard case .blocked(let block, true) = await second.judge("+447911130004", application: Self.app,
                                                                   rule: rule) else {
            Issue.record("ten sends on one network over two instances did not block it")
            return
        }
        #expect(block.prefix == "net:23499" && block.rule == "network_volume" && block.sends == 10)
        await first.flush()
        #expect(await first.judge("+447911170005", application: Self.app, rule: rule)
                == .blocked(block, isNew: false))
    }

    /// Two instances' ledgers on one PostgreSQL database, on one ManualClock, and their stores.
    static func twoLedgers() async throws -> (stores: [any VerificationStore & RateLimitStore], clock: ManualClock,
                                              first: PrefixLedger, second: PrefixLedger) {
        let stores = try await PostgresCluster.makeInstances(2)
        let clock = ManualClock()
        let first = PrefixLedger(store: try #require(stores[0] as? any PrefixLedgerStore), clock: clock)
        let second = PrefixLedger(store: try #require(stores[1] as? any PrefixLedgerStore), clock: clock)
        return (stores, clock, first, second)
    }
}
