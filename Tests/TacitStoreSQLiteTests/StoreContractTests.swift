import Foundation
import Testing
import TacitCore
import TacitStore
import TacitStorePostgres
import TacitStoreSQLite
import TacitTesting

/// The contract every `VerificationStore` keeps, run against each implementation.
@Suite("Store contract")
struct StoreContractTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case memory, sqlite, postgres
        var testDescription: String { rawValue }
        /// PostgreSQL is left out only when `TACIT_TEST_POSTGRES=off` says so.
        static var allCases: [Kind] { PostgresCluster.enabled ? [.memory, .sqlite, .postgres] : [.memory, .sqlite] }
    }

    struct Protection: FieldProtection {
        func seal(_ plaintext: [UInt8]) -> [UInt8] { plaintext.map { $0 ^ 0x5A } }
        func open(_ sealed: [UInt8]) throws -> [UInt8] { sealed.map { $0 ^ 0x5A } }
        func index(_ value: String) -> String { "idx-" + String(value.reversed()) }
    }

    static func make(_ kind: Kind) async throws -> (any VerificationStore, String?) {
        switch kind {
        case .memory:
            return (InMemoryStore(), nil)
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString).db").path
            let store = try SQLiteVerificationStore(path: path)
            try await store.migrate()
            store.protect(with: Protection())
            return (store, path)
        case .postgres:
            let store = try await PostgresCluster.makeStore().store
            store.protect(with: Protection())
            return (store, nil)
        }
    }

    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    /// A pending SMS verification as a store keeps one: its state restored, the deadline `deadline` seconds away.
    static func verification(_ id: String, _ number: String = "+99012345670", deadline: TimeInterval = 60,
                             lastSeq: Int = 0) -> Verification {
        let state = VerificationState.pending(ActiveStep(index: 0, deadline: now.addingTimeInterval(deadline)))
        var v = Verification(id: id, phoneNumber: number, options: VerificationOptions(workflow: [.sms]),
                             clientTokenHash: [7, 7], createdAt: now, state: state)
        v.workflow[0].status = .active
        v.lastSeq = lastSeq
        return v
    }

    /// `v` cancelled at `at` by the workflow machine.
    static func cancelled(_ v: Verification, at: Date = now) -> Verification {
        var machine = WorkflowMachine(v, now: at)
        // The tests cancel pending verifications only: a refusal would leave `v` as it was.
        _ = machine.handle(.cancel)
        return machine.verification
    }

    @Test("a verification reads back as it was written", arguments: Kind.allCases)
    func roundTrip(kind: Kind) async throws {
        let (store, path) = try await Self.make(kind)
        let written = try await store.insert(Self.verification("a"), events: [EventDraft("x:one", note: "one")], at: Self.now, idempotency: nil)
        #expect(written.map(\.seq) == [1])
        let read = try #require(try await store.verification(id: "a"))
        var expected = Self.verification("a")
        expected.lastSeq = 1
        #expect(read == expected)
        #expect(try await store.verification(id: "missing") == nil)
        if let path {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path)) + ((try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data())
            #expect(bytes.range(of: Data("99012345670".utf8)) == nil, "the number is never stored in clear")
        }
    }

    @Test("only one pending verification per number", arguments: Kind.allCases)
    func onePendingPerNumber(kind: Kind) async throws {
        let (store, _) = try await Self.make(kind)
        _ = try await store.insert(Self.verification("a"), events: [], at: Self.now, idempotency: nil)
        await #expect(throws: StoreError.concurrentVerification) {
            _ = try await store.insert(Self.verification("b"), events: [], at: Self.now, idempotency: nil)
        }
        _ = try await store.update(id: "a", at: Self.now) { v in
            v = Self.cancelled(v)
            return StoreChange(())
        }
        _ = try await store.insert(Self.verification("b"), events: [], at: Self.now, idempotency: nil)
        await #expect(throws: StoreError.concurrentVerification) {
            _ = try await store.insert(Self.verification("c"), events: [], at: Self.now, idempotency: nil)
        }
        #expect(try await store.pendingCount() == 1)
        #expect(try await store.verification(id: "c") == nil)
    }

    @Test("updates append events with gap-free sequence numbers, redacted", arguments: Kind.allCases)
    func updatesAppendEvents(kind: Kind) async throws {
        let (store, _) = try await Self.make(kind)
        _ = try await store.insert(Self.verification("a"), events: [EventDraft("x:one", note: "one")], at: Self.now, idempotency: nil)
        let result = try #require(try await store.update(id: "a", at: Self.now) { v in
            v.failedAttempts = 3
            return StoreChange(42, events: [EventDraft("x:two", note: "two", data: ["phone_number": .phone("+99012345670")]),
                                            EventDraft("x:three", note: "three", data: ["code": .code("123456")])])
        })
        #expect(result.result == 42)
        #expect(result.events.map(\.seq) == [2, 3])
        let events = try await store.events(id: "a", after: 0, limit: 100)
        #expect(events.map(\.seq) == [1, 2, 3])
        #expect(events[1].data["phone_number"] == .string("+99•••••5670"))
        #expect(events[2].data["code"] == .string("••••56"))
        #expect(try await store.events(id: "a", after: 2, limit: 100).map(\.seq) == [3])
        #expect(try await store.events(id: "a", after: 0, limit: 2).map(\.seq) == [1, 2])
        #expect(try await store.events(id: "a", after: 1, limit: 1).map(\.seq) == [2])
        #expect(try await store.verification(id: "a")?.failedAttempts == 3)
        #expect(try await store.update(id: "missing", at: Self.now) { _ in StoreChange(0) } == nil)
    }

    @Test("a throwing update changes nothing", arguments: Kind.allCases)
    func throwingUpdateRollsBack(kind: Kind) async throws {
        struct Boom: Error {}
        let (store, _) = try await Self.make(kind)
        _ = try await store.insert(Self.verification("a"), events: [], at: Self.now, idempotency: nil)
        await #expect(throws: Boom.self) {
            _ = try await store.update(id: "a", at: Self.now) { v -> StoreChange<Void> in
                v.failedAttempts = 9
                throw Boom()
            }
        }
        #expect(try await store.verification(id: "a")?.failedAttempts == 0)
        #expect(try await store.events(id: "a", after: 0, limit: 10).isEmpty)
    }

    @Test("deadlines list pending timers soonest first", arguments: Kind.allCases)
    func deadlines(kind: Kind) async throws {
        let (store, _) = try await Self.make(kind)
        let late = Self.verification("late", "+99012345671", deadline: 500)
        _ = try await store.insert(late, events: [], at: Self.now, idempotency: nil)
        _ = try await store.insert(Self.verification("soon", "+99012345672"), events: [], at: Self.now, idempotency: nil)
        #expect(try await store.deadlines(limit: 10).map(\.id) == ["soon", "late"])
    }

    @Test("an update that moves only the deadline reorders the timers; one that moves neither keeps them", arguments: Kind.allCases)
    func deadlineOnlyUpdates(kind: Kind) async throws {
        let (store, path) = try await Self.make(kind)
        _ = try await store.insert(Self.verification("a", "+99012345671"), events: [], at: Self.now, idempotency: nil)
        _ = try await store.insert(Self.verification("b", "+99012345672"), events: [], at: Self.now, idempotency: nil)
        _ = try await store.update(id: "a", at: Self.now) { v in
            v = Self.verification(v.id, v.phoneNumber, deadline: 900, lastSeq: v.lastSeq)
            return StoreChange(())
        }
        _ = try await store.update(id: "b", at: Self.now) { v in
            v.failedAttempts = 1
            return StoreChange(())
        }
        let deadlines = try await store.deadlines(limit: 10)
        #expect(deadlines.map(\.id) == ["b", "a"])
        #expect(deadlines.map(\.at) == [Self.now.addingTimeInterval(60), Self.now.addingTimeInterval(900)])
        if let path {
            // A second store on the same file reads what the first committed.
            let reopened = try SQLiteVerificationStore(path: path)
            reopened.protect(with: Protection())
            #expect(try await reopened.deadlines(limit: 10).map(\.id) == ["b", "a"])
        }
    }

    @Test("an idempotency key is taken once; settings keep their first value", arguments: Kind.allCases)
    func idempotencyAndSettings(kind: Kind) async throws {
        let (store, _) = try await Self.make(kind)
        let record = IdempotencyRecord(key: "k", requestHash: [1], status: 0, sealedBody: [], createdAt: Self.now)
        _ = try await store.insert(Self.verification("a", "+99012345671"), events: [], at: Self.now, idempotency: record)
        await #expect(throws: StoreError.idempotencyKeyReused) {
            _ = try await store.insert(Self.verification("b", "+99012345672"), events: [], at: Self.now, idempotency: record)
        }
        #expect(try await store.verification(id: "b") == nil, "the losing insert left nothing")
        try await store.saveIdempotentResponse(key: "k", status: 202, sealedBody: [9])
        #expect(try await store.idempotencyRecord(key: "k")?.sealedBody == [9])
        #expect(try await store.setSettingIfAbsent("s", [1]) == [1])
        #expect(try await store.setSettingIfAbsent("s", [2]) == [1])
        #expect(try await store.setting("s") == [1])
    }

    @Test("idempotency records older than the cutoff are swept, past one delete batch, and their keys can be used again", arguments: Kind.allCases)
    func idempotencySweep(kind: Kind) async throws {
        let (store, _) = try await Self.make(kind)
        // Written in parallel, so the SQLite writer commits them in a few group commits.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<1_010 {
                group.addTask {
                    let v = Self.cancelled(Self.verification("v\(index)", "+9901234\(String(format: "%05d", index))"))
                    let age: TimeInterval = index < 1_005 ? 100 : 0
                    let record = IdempotencyRecord(key: "k\(index)", requestHash: [1], status: 0, sealedBody: [],
                                                   createdAt: Self.now.addingTimeInterval(-age))
                    _ = try await store.insert(v, events: [], at: Self.now, idempotency: record)
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.sweepIdempotency(createdBefore: Self.now.addingTimeInterval(-100)) == 0)
        #expect(try await store.sweepIdempotency(createdBefore: Self.now.addingTimeInterval(-50)) == 1_005)
        #expect(try await store.idempotencyRecord(key: "k0") == nil)
        #expect(try await store.idempotencyRecord(key: "k1009") != nil)
        let reused = IdempotencyRecord(key: "k0", requestHash: [2], status: 0, sealedBody: [], createdAt: Self.now)
        _ = try await store.insert(Self.verification("again", "+99012345699"), events: [], at: Self.now, idempotency: reused)
        #expect(try await store.idempotencyRecord(key: "k0")?.requestHash == [2])
    }
}
