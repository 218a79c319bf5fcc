import Foundation
import Testing
import TacitCore
import TacitStore
import TacitStorePostgres
import TacitStoreSQLite
import TacitTesting

/// Counters that commit with a verification's update (`StoreChange.rates`), against every
/// store. Two instances are two stores on one database (two SQLite handles on one file,
/// two PostgreSQL pools); the in-memory store is one process, so its two are one store.
@Suite("Counters committed with an update")
struct CountedRatesContractTests {
    typealias Store = any VerificationStore & RateLimitStore & ConversionStore
    static let limit = RateLimit(4, per: 600)
    static let key = "failed-checks:idx"

    /// Two instances of one database, and the temporary directory that must outlive them.
    static func pair(_ kind: StoreContractTests.Kind) async throws -> (Store, Store, TemporaryDatabase?) {
        switch kind {
        case .memory:
            let store = InMemoryStore()
            return (store, store, nil)
        case .sqlite:
            let directory = try TemporaryDatabase()
            let first = try SQLiteVerificationStore(path: directory.path)
            try await first.migrate()
            let second = try SQLiteVerificationStore(path: directory.path)
            for store in [first, second] { store.protect(with: StoreContractTests.Protection()) }
            return (first, second, directory)
        case .postgres:
            let (first, url) = try await PostgresCluster.makeStore()
            let second = PostgresVerificationStore(url: url)
            for store in [first, second] { store.protect(with: StoreContractTests.Protection()) }
            return (first, second, nil)
        }
    }

    /// A wrong code's update: one attempt more on the verification, one hit on the counter.
    static func wrongCode(_ store: Store, at: Date) async throws {
        _ = try await store.update(id: "a", at: at) { v in
            v.failedAttempts += 1
            return StoreChange((), events: [EventDraft("x:wrong", note: "wrong")], rates: [.consume(key: key, limit: limit)])
        }
    }

    @Test("wrong codes counted in their updates through two instances add up to the limit, which both then refuse",
          arguments: StoreContractTests.Kind.allCases)
    func sharedRun(kind: StoreContractTests.Kind) async throws {
        let (first, second, directory) = try await Self.pair(kind)
        let now = StoreContractTests.now
        _ = try await first.insert(StoreContractTests.verification("a"), events: [], at: now, idempotency: nil)
        for index in 0..<Self.limit.limit { try await Self.wrongCode(index.isMultiple(of: 2) ? first : second, at: now) }
        for store in [first, second] {
            #expect(try await store.peek(Self.key, Self.limit, at: now) == .limited(retryAfter: 600))
            #expect(try await store.hits(Self.key, Self.limit, at: now) == Self.limit.limit)
        }
        _ = try await second.update(id: "a", at: now) { _ in StoreChange((), rates: [.reset(key: Self.key)]) }
        #expect(try await first.peek(Self.key, Self.limit, at: now) == .allowed(hits: 0), "a reset through one instance shows in the other")
        _ = directory
    }

    @Test("parallel updates through two instances each count exactly once", arguments: StoreContractTests.Kind.allCases)
    func parallelCounts(kind: StoreContractTests.Kind) async throws {
        let (first, second, directory) = try await Self.pair(kind)
        let now = StoreContractTests.now
        _ = try await first.insert(StoreContractTests.verification("a"), events: [], at: now, idempotency: nil)
        let wide = RateLimit(1_000, per: 600)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask {
                    _ = try await store.update(id: "a", at: now) { v in
                        v.failedAttempts += 1
                        return StoreChange((), rates: [.consume(key: Self.key, limit: wide)])
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await first.hits(Self.key, wide, at: now) == 20, "a change retried on a newer row counts once")
        #expect(try await second.verification(id: "a")?.failedAttempts == 20)
        _ = directory
    }
}
