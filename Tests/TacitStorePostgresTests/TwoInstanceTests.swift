import Foundation
import Testing
import TacitCore
import TacitStore
import TacitStorePostgres
import TacitTesting

/// Two stores on one database, each with its own pool, stand in for two instances: what
/// the SQLite store gets from its single writer, these get from the database alone.
@Suite("Two instances on one PostgreSQL database", .enabled(if: PostgresCluster.enabled))
struct TwoInstanceTests {
    let first: PostgresVerificationStore
    let second: PostgresVerificationStore
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    init() async throws {
        (first, second) = try await PostgresCluster.makeProtectedPair()
    }

    /// A pending SMS verification as a store keeps one: its state restored, the deadline `deadline` seconds away.
    static func verification(_ id: String, _ number: String = "+99012345670", deadline: TimeInterval = 60,
                             lastSeq: Int = 0) -> Verification {
        let state = VerificationState.pending(ActiveStep(index: 0, deadline: now.addingTimeInterval(deadline)))
        var v = Verification(id: id, phoneNumber: number, options: VerificationOptions(workflow: [.sms]),
                             clientTokenHash: [7], createdAt: now, state: state)
        v.workflow[0].status = .active
        v.lastSeq = lastSeq
        return v
    }

    @Test("of 50 parallel right codes through two instances, exactly one completes the verification")
    func oneRightCodeWins() async throws {
        _ = try await first.insert(Self.verification("a"), events: [], at: Self.now, idempotency: nil)
        let (first, second) = (first, second)
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<50 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask {
                    try await store.update(id: "a", at: Self.now) { v in
                        guard v.status == .pending else { return StoreChange(false) }
                        var machine = WorkflowMachine(v, now: Self.now)
                        _ = machine.handle(.approve)
                        v = machine.verification
                        return StoreChange(true, events: [EventDraft("x:completed", note: "completed")])
                    }?.result ?? false
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
        #expect(try await second.verification(id: "a")?.status == .completed)
        #expect(try await first.events(id: "a", after: 0, limit: 100).map(\.seq) == [1], "one completion event, written once")
    }

    @Test("concurrent starts for one number across two instances: exactly one is created, the others are refused")
    func oneStartWins() async throws {
        let (first, second) = (first, second)
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask {
                    do {
                        _ = try await store.insert(Self.verification("v\(index)"), events: [], at: Self.now, idempotency: nil)
                        return true
                    } catch let error as StoreError where error == .concurrentVerification {
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await first.pendingCount() == 1)
    }

    @Test("a webhook outbox row claimed by one instance is not claimed by the other, and every row is claimed once")
    func outboxClaimedOnce() async throws {
        let messages = (0..<40).map { index in
            OutboxMessage(id: "wh_\(index)", endpoint: "ep", verificationId: "a", type: "verification.completed", payload: [1],
                          createdAt: Self.now)
        }
        _ = try await first.insert(Self.verification("a"), events: [], outbox: messages, at: Self.now, idempotency: nil)
        let (first, second) = (first, second)
        let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
            for index in 0..<16 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask { try await store.claimOutbox(now: Self.now, lease: 30, limit: 3).map(\.id) }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(claimed.count == 40)
        #expect(Set(claimed).count == 40, "no row went to both")
        #expect(try await second.claimOutbox(now: Self.now.addingTimeInterval(29), lease: 30, limit: 10).isEmpty, "held under the lease")
    }

    @Test("a send claimed by one instance is not claimed by the other")
    func sendClaimedOnce() async throws {
        let sends = (0..<12).map { step in
            QueuedSend(id: QueuedSend.key(verificationId: "a", step: step), verificationId: "a", step: step, channel: "sms",
                       sealedCode: [9], createdAt: Self.now)
        }
        _ = try await first.insert(Self.verification("a"), events: [], outbox: [], sends: sends, at: Self.now, idempotency: nil)
        let (first, second) = (first, second)
        let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
            for index in 0..<8 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask { try await store.claimSends(now: Self.now, lease: 30, limit: 2).map(\.id) }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(claimed.count == 12)
        #expect(Set(claimed).count == 12)
    }

    @Test("a provider callback seen by both instances at once is new to exactly one of them")
    func callbackReplayOnce() async throws {
        let (first, second) = (first, second)
        let fresh = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask { try await store.rememberCallback(key: "cb", expiresAt: Self.now.addingTimeInterval(60), now: Self.now) }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(fresh == 1)
        #expect(try await first.rememberCallback(key: "cb", expiresAt: Self.now.addingTimeInterval(200), now: Self.now.addingTimeInterval(60)),
                "once its window is over the key is new again")
    }

    @Test("parallel hits on one counter through two instances never pass the limit")
    func sharedRateLimit() async throws {
        let limit = RateLimit(5, per: 600)
        let (first, second) = (first, second)
        let allowed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<30 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask { if case .allowed = try await store.consume("k", limit, at: Self.now) { true } else { false } }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(allowed == 5)
    }

    @Test("an idempotency key taken through one instance is refused through the other")
    func idempotencyAcrossInstances() async throws {
        let record = IdempotencyRecord(key: "k", requestHash: [1], status: 0, sealedBody: [], createdAt: Self.now)
        _ = try await first.insert(Self.verification("a", "+99012345671"), events: [], at: Self.now, idempotency: record)
        await #expect(throws: StoreError.idempotencyKeyReused) {
            _ = try await second.insert(Self.verification("b", "+99012345672"), events: [], at: Self.now, idempotency: record)
        }
        #expect(try await first.verification(id: "b") == nil)
    }
}

/// Seals by XOR: enough for the store to never hold a number in clear, in tests.
extension PostgresCluster {
    /// Two migrated stores on one fresh schema, each with a pool of its own and
    /// `XORProtection`: two instances on one database.
    static func makeProtectedPair() async throws -> (PostgresVerificationStore, PostgresVerificationStore) {
        let (first, url) = try await makeStore()
        let second = PostgresVerificationStore(url: url)
        for store in [first, second] { store.protect(with: XORProtection()) }
        return (first, second)
    }
}

struct XORProtection: FieldProtection {
    func seal(_ plaintext: [UInt8]) -> [UInt8] { plaintext.map { $0 ^ 0x5A } }
    func open(_ sealed: [UInt8]) throws -> [UInt8] { sealed.map { $0 ^ 0x5A } }
    func index(_ value: String) -> String { "idx-" + String(value.reversed()) }
}
