import Foundation
import Synchronization
import Testing
import TacitCore
import TacitStore
import TacitStoreSQLite

/// The SQLite store works an update out before the writer's turn, from the state it last
/// read or wrote, and writes it only if the row is still that state. Two stores on one
/// file stand in for a change the first store did not see.
@Suite("SQLite updates worked out before the write")
struct OptimisticUpdateTests {
    final class Calls: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    let directory: TemporaryDatabase
    let first: SQLiteVerificationStore
    let second: SQLiteVerificationStore

    init() async throws {
        directory = try TemporaryDatabase()
        first = try SQLiteVerificationStore(path: directory.path)
        try await first.migrate()
        second = try SQLiteVerificationStore(path: directory.path)
        for store in [first, second] { store.protect(with: StoreContractTests.Protection()) }
        _ = try await first.insert(StoreContractTests.verification("a"), events: [EventDraft("x:created", note: "created")],
                                   at: StoreContractTests.now, idempotency: nil)
    }

    /// Adds one failed attempt and one event.
    static func bump(_ store: SQLiteVerificationStore, calls: Calls? = nil) async throws -> StoreUpdateResult<Int>? {
        try await store.update(id: "a", at: StoreContractTests.now) { v in
            calls?.add()
            v.failedAttempts += 1
            return StoreChange(v.failedAttempts, events: [EventDraft("x:bump", note: "bump")])
        }
    }

    @Test("a change made elsewhere since the state was kept is seen: the update is worked out again on the row")
    func staleStateIsRedone() async throws {
        _ = try await Self.bump(second)
        _ = try await Self.bump(second)
        let calls = Calls()
        let result = try #require(try await Self.bump(first, calls: calls))
        #expect(result.result == 3)
        #expect(calls.value == 2)
        #expect(try await second.verification(id: "a")?.failedAttempts == 3)
        #expect(try await second.events(id: "a", after: 0, limit: 10).map(\.seq) == [1, 2, 3, 4])
    }

    @Test("the recent state is the one this store last wrote, kept after it is read, until the store reads again")
    func recentStateIsAHint() async throws {
        _ = try await Self.bump(second)
        // The first store still keeps the state of its own insert: a hint, out of date.
        #expect(try await first.recentVerification(id: "a")?.failedAttempts == 0)
        #expect(try await first.recentVerification(id: "a")?.failedAttempts == 0)
        // A read replaces it; an unknown id is nil either way.
        #expect(try await first.verification(id: "a")?.failedAttempts == 1)
        #expect(try await first.recentVerification(id: "a")?.failedAttempts == 1)
        #expect(try await first.recentVerification(id: "nope") == nil)
        // A store that never saw the id reads it.
        let third = try SQLiteVerificationStore(path: directory.path)
        third.protect(with: StoreContractTests.Protection())
        #expect(try await third.recentVerification(id: "a")?.failedAttempts == 1)
    }

    @Test("a refusal on a kept state is checked on a fresh read before it stands")
    func refusalOnKeptStateIsRechecked() async throws {
        struct NotYet: Error {}
        _ = try await Self.bump(second)
        let result = try await first.update(id: "a", at: StoreContractTests.now) { v -> StoreChange<Int> in
            guard v.failedAttempts > 0 else { throw NotYet() }
            v.failedAttempts += 10
            return StoreChange(v.failedAttempts)
        }
        #expect(result?.result == 11)
        await #expect(throws: NotYet.self) {
            _ = try await first.update(id: "a", at: StoreContractTests.now) { v -> StoreChange<Int> in throw NotYet() }
        }
        #expect(try await second.verification(id: "a")?.failedAttempts == 11)
    }

    @Test("40 parallel updates of one verification each land exactly once, with gap-free events")
    func parallelUpdatesLandOnce() async throws {
        let calls = Calls()
        let (first, second) = (first, second)
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask { try await OptimisticUpdateTests.bump(store, calls: calls)?.result ?? -1 }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.sorted() == Array(1...40))
        #expect(calls.value >= 40)
        #expect(try await first.verification(id: "a")?.failedAttempts == 40)
        #expect(try await first.events(id: "a", after: 0, limit: 100).map(\.seq) == Array(1...41))
    }
}
