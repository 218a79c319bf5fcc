import Foundation
import Testing
@testable import TacitServer
import TacitCore
import TacitStore
import TacitTesting

@Suite("Housekeeping")
struct HousekeeperTests {
    @Test("each round forgets ended rate-limit windows and idempotency records past their retention, and keeps the rest")
    func roundsOnTheClock() async throws {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let store = InMemoryStore()
        let start = clock.now()
        _ = try await store.consume("short", RateLimit(3, per: 60), at: start)
        _ = try await store.consume("long", RateLimit(3, per: 3_600), at: start)
        for (id, key, age) in [("a", "old", 900.0), ("b", "young", 0.0)] {
            let verification = Verification(id: id, phoneNumber: "+9901234567" + String(id == "a" ? 1 : 2),
                                            options: VerificationOptions(), clientTokenHash: [], createdAt: start,
                                            state: .finished(.cancelled))
            let record = IdempotencyRecord(key: key, requestHash: [1], status: 0, sealedBody: [],
                                           createdAt: start.addingTimeInterval(-age))
            _ = try await store.insert(verification, events: [], at: start, idempotency: record)
        }
        let housekeeper = Housekeeper(store: store, rates: store, clock: clock, interval: 600, idempotencyRetention: 1_000)
        let task = Task { await housekeeper.run() }
        defer { task.cancel() }
        await Self.untilAsleep(clock)
        clock.advance(by: 600)
        // The sweep is the housekeeper's next step after waking; it then sleeps again.
        await Self.untilAsleep(clock)
        #expect(try await store.hits("short", RateLimit(3, per: 60), at: clock.now()) == 0)
        #expect(try await store.hits("long", RateLimit(3, per: 3_600), at: clock.now()) == 1)
        #expect(try await store.idempotencyRecord(key: "old") == nil, "created 1,500 s before the round, past 1,000 s")
        #expect(try await store.idempotencyRecord(key: "young") != nil)
        #expect(try await store.sweepRates(at: clock.now()) == 0, "the ended counter is already gone")
    }

    /// Yields (a bounded number of times) until something sleeps on `clock`.
    static func untilAsleep(_ clock: ManualClock) async {
        for _ in 0..<100_000 where clock.sleeperCount == 0 { await Task.yield() }
    }
}
