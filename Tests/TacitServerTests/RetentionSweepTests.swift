import Foundation
import Synchronization
import Testing
@testable import TacitServer
import TacitCore
import TacitStore
import TacitStoreSQLite

/// The retention sweep's batches against the SQLite store: a backlog is many short writes,
/// never one long one.
@Suite("Retention sweep", .timeLimit(.minutes(1)))
struct RetentionSweepTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    struct Protection: FieldProtection {
        func seal(_ plaintext: [UInt8]) -> [UInt8] { plaintext.map { $0 ^ 0x3C } }
        func open(_ sealed: [UInt8]) -> [UInt8] { sealed.map { $0 ^ 0x3C } }
        func index(_ value: String) -> String { "i" + value }
    }

    /// A store that forwards to SQLite and keeps what each sweeping call deleted; before
    /// the second call it creates a verification, which must commit while the sweep is
    /// only part done.
    final class RecordingSweeps: RetentionStore {
        let inner: SQLiteVerificationStore
        let calls = Mutex<[Int]>([])
        let createdBetween = Mutex<Bool>(false)

        init(_ inner: SQLiteVerificationStore) { self.inner = inner }

        func sweepFinished(before cutoff: Date, limit: Int) async throws -> SweptVerifications {
            if calls.withLock({ $0.count }) == 1 {
                _ = try await inner.insert(RetentionSweepTests.verification("between", finished: false), events: [],
                                       at: RetentionSweepTests.now, idempotency: nil)
                createdBetween.withLock { $0 = true }
            }
            let swept = try await inner.sweepFinished(before: cutoff, limit: limit)
            calls.withLock { $0.append(swept.verifications) }
            return swept
        }

        func sweepCallbackReplays(at now: Date, limit: Int) async throws -> Int {
            try await inner.sweepCallbackReplays(at: now, limit: limit)
        }
    }

    static func verification(_ id: String, finished: Bool) -> Verification {
        var verification = Verification(id: id, phoneNumber: "+99012345670", options: VerificationOptions(workflow: [.sms]),
                                        clientTokenHash: [],
                                        createdAt: now.addingTimeInterval(finished ? -40 * 86_400 : 0),
                                        state: finished ? .finished(.cancelled) : .unstarted)
        if finished {
            verification.endedAt = now.addingTimeInterval(-31 * 86_400)
        }
        return verification
    }

    @Test("a sweep of 1,200 finished verifications commits in three writes of at most 500, and a create gets through between them")
    func commitsInBatches() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("retention-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteVerificationStore(path: path)
        try await store.migrate()
        store.protect(with: Protection())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for slice in 0..<4 {
                group.addTask {
                    for index in stride(from: slice, to: 1_200, by: 4) {
                        _ = try await store.insert(Self.verification("old\(index)", finished: true),
                                                   events: [EventDraft("x:one", note: "one")], at: Self.now, idempotency: nil)
                    }
                }
            }
            try await group.waitForAll()
        }
        let recording = RecordingSweeps(store)
        let metrics = HousekeepingMetrics()
        let sweep = RetentionSweep(store: recording, metrics: metrics, pacing: 0)
        try await sweep.run(finishedBefore: Self.now.addingTimeInterval(-30 * 86_400), at: Self.now)

        #expect(recording.calls.withLock { $0 } == [500, 500, 200])
        #expect(recording.createdBetween.withLock { $0 }, "the create ran after the first batch and before the second")
        #expect(try await store.verification(id: "between")?.status == .pending)
        #expect(try await store.verification(id: "old0") == nil)
        #expect(try await store.verification(id: "old1199") == nil)
        #expect(metrics.rows(.verifications) == 1_200)
        #expect(metrics.rows(.events) == 1_200)
    }

    @Test("between full batches the sweep rests for its pacing times the batch's duration")
    func pacerRests() async throws {
        var pacer = BatchPacer(rest: 2)
        let clock = ContinuousClock()
        let took = try await clock.measure { _ = try await pacer.timed { try await Task.sleep(for: .milliseconds(20)) } }
        let rested = await clock.measure { await pacer.rest() }
        #expect(took >= .milliseconds(20))
        #expect(rested >= .milliseconds(40), "twice the 20 ms batch")
    }
}
