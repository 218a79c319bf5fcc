import Foundation
import Testing
import TacitStore
import TacitStorePostgres
import TacitStoreSQLite
import TacitTesting

/// The key and rate-limit contract, run against the SQLite, PostgreSQL and in-memory stores.
@Suite("Key and rate-limit stores")
struct SecurityStoreContractTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, memory, postgres
        var testDescription: String { rawValue }
        /// PostgreSQL is left out only when `TACIT_TEST_POSTGRES=off` says so.
        static var allCases: [Backend] { PostgresCluster.enabled ? [.sqlite, .memory, .postgres] : [.sqlite, .memory] }
    }

    /// The store, and the temporary directory that must outlive it.
    func make(_ backend: Backend) async throws -> (any KeyStore & RateLimitStore, TemporaryDatabase?) {
        switch backend {
        case .memory: return (InMemoryStore(), nil)
        case .sqlite:
            let directory = try TemporaryDatabase()
            let store = try SQLiteVerificationStore(path: directory.path)
            try await store.migrate()
            return (store, directory)
        case .postgres:
            return (try await PostgresCluster.makeStore().store, nil)
        }
    }

    @Test("keys are found by hash only, listed, touched and revoked once", arguments: Backend.allCases)
    func keys(_ backend: Backend) async throws {
        let (store, directory) = try await make(backend)
        let created = Date(timeIntervalSince1970: 1_800_000_000)
        let key = APIKey(id: "key_1", name: "ci", scopes: ["verifications:read"], createdAt: created)
        try await store.insertKey(key, hash: [1, 2, 3])
        #expect(try await store.key(hash: [1, 2, 3]) == key)
        #expect(try await store.key(hash: [1, 2, 4]) == nil)
        try await store.touchKey(id: "key_1", at: created.addingTimeInterval(5))
        #expect(try await store.keys().first?.lastUsedAt == created.addingTimeInterval(5))
        #expect(try await store.revokeKey(id: "key_1", at: created.addingTimeInterval(10)))
        #expect(try await store.revokeKey(id: "key_1", at: created.addingTimeInterval(20)))
        #expect(try await store.key(hash: [1, 2, 3])?.revokedAt == created.addingTimeInterval(10))
        #expect(try await store.revokeKey(id: "key_none", at: created) == false)
        _ = directory
    }

    @Test("a window counts to its limit, refuses without counting, and admits again once the oldest hits are a window old", arguments: Backend.allCases)
    func window(_ backend: Backend) async throws {
        let (store, directory) = try await make(backend)
        let limit = RateLimit(3, per: 600)
        let start = Date(timeIntervalSince1970: 1_800_000_000)   // a multiple of 600
        for hit in 1...3 { #expect(try await store.consume("k", limit, at: start.addingTimeInterval(Double(hit))) == .allowed(hits: hit)) }
        #expect(try await store.consume("k", limit, at: start.addingTimeInterval(100)) == .limited(retryAfter: 503))
        #expect(try await store.peek("k", limit, at: start.addingTimeInterval(100)) == .limited(retryAfter: 503))
        #expect(try await store.hits("k", limit, at: start.addingTimeInterval(100)) == 3)
        #expect(try await store.consume("other", limit, at: start) == .allowed(hits: 1))
        #expect(try await store.peek("other", limit, at: start) == .allowed(hits: 1), "peeking counts nothing")
        #expect(try await store.consume("k", limit, at: start.addingTimeInterval(600)) == .limited(retryAfter: 3),
                "a clock-aligned boundary starts nothing again")
        #expect(try await store.consume("k", limit, at: start.addingTimeInterval(603)) == .allowed(hits: 1))
        try await store.resetRate("k")
        #expect(try await store.hits("k", limit, at: start.addingTimeInterval(603)) == 0)
        _ = directory
    }

    @Test("no span of the window's length admits more than the limit, and a steady caller still gets the limit per window", arguments: Backend.allCases)
    func sliding(_ backend: Backend) async throws {
        let (store, directory) = try await make(backend)
        let limit = RateLimit(5, per: 600)
        let start = Date(timeIntervalSince1970: 1_800_000_000 - 2)
        var admitted: [Double] = []
        for second in stride(from: 0.0, to: 3_000, by: 13) {
            if case .allowed = try await store.consume("k", limit, at: start.addingTimeInterval(second)) { admitted.append(second) }
        }
        for time in admitted { #expect(admitted.filter { $0 > time - 600 && $0 <= time }.count <= 5, "window ending at \(time)") }
        // A bucket's hits may count one slice (600 / RateLimit.slices s) past the window: 5 per 620 s at worst.
        #expect(admitted.count >= 3_000 / 620 * 5)
        _ = directory
    }

    @Test("a sweep forgets only the counters whose window has ended, past one delete batch", arguments: Backend.allCases)
    func sweep(_ backend: Backend) async throws {
        let (store, directory) = try await make(backend)
        let start = Date(timeIntervalSince1970: 1_800_000_000)   // a multiple of 600 and of 60
        let short = RateLimit(5, per: 60), long = RateLimit(5, per: 600)
        // Written in parallel, so the SQLite writer commits them in a few group commits.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<1_050 { group.addTask { _ = try await store.consume("short-\(index)", short, at: start) } }
            try await group.waitForAll()
        }
        _ = try await store.consume("long", long, at: start)
        #expect(try await store.sweepRates(at: start.addingTimeInterval(59)) == 0)
        #expect(try await store.sweepRates(at: start.addingTimeInterval(60)) == 1_050)
        #expect(try await store.hits("long", long, at: start.addingTimeInterval(60)) == 1)
        #expect(try await store.sweepRates(at: start.addingTimeInterval(600)) == 1)
        #expect(try await store.hits("long", long, at: start.addingTimeInterval(599)) == 0)
        _ = directory
    }

    @Test("parallel hits never pass the limit", arguments: Backend.allCases)
    func parallel(_ backend: Backend) async throws {
        let (store, directory) = try await make(backend)
        let limit = RateLimit(5, per: 600)
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let allowed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<40 { group.addTask { if case .allowed = try await store.consume("k", limit, at: at) { true } else { false } } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(allowed == 5)
        _ = directory
    }
}
