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
        let stores = try await PostgresCluster.makeInstances(2)
        let clock = ManualClock()
        let first = PrefixLedger(store: try #require(stores[0] as? any PrefixLedgerStore), clock: clock)
        let second = PrefixLedger(store: try #require(stores[1] as? any PrefixLedgerStore), clock: clock)
        let rule = try #require(PrefixRule.at(.standard))
        for index in 0..<6 {
            await first.sent(Self.attack(index), application: Self.app)
            await second.sent(Self.attack(index + 6), application: Self.app)
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
        #expect(await first.judge(Self.attack(22), application: Self.app, rule: rule) == .blocked(block, isNew: false))
        let stored = try await (stores[0] as? any PrefixLedgerStore)?.prefixBlocks(application: Self.app)
        #expect(stored == [block])
    }
}
