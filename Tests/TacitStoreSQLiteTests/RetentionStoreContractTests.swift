import Foundation
import Testing
import TacitCore
import TacitStore
import TacitTesting

/// Retention's deletes, the same against every store (see `StoreContractTests`).
@Suite("Retention store contract")
struct RetentionStoreContractTests {
    typealias Kind = StoreContractTests.Kind
    static let now = StoreContractTests.now

    /// A verification that finished at `now + offset`, with `events` events and one
    /// webhook in the outbox in `outbox` state (none when nil).
    static func finished(_ store: any VerificationStore, _ id: String, number: String, offset: TimeInterval,
                         events: Int = 2, outbox: OutboxState? = .delivered) async throws {
        let at = now.addingTimeInterval(offset)
        let drafts = (0..<events - 1).map { EventDraft("x:\($0)", note: "n\($0)") }
        let messages = outbox.map { _ in [OutboxMessage(id: "wh_\(id)", endpoint: "ep", verificationId: id, type: "verification.cancelled",
                                                   payload: [1], createdAt: at)] } ?? []
        _ = try await store.insert(StoreContractTests.verification(id, number), events: drafts, at: at, idempotency: nil)
        _ = try await store.update(id: id, at: at) { v in
            v = StoreContractTests.cancelled(v, at: at)
            return StoreChange((), events: [EventDraft("x:end", note: "end")], outbox: messages)
        }
        if let outbox, outbox != .pending {
            try await store.recordOutboxAttempt(id: "wh_\(id)", outcome: outbox == .delivered ? .delivered : .dead, at: at)
        }
    }

    @Test("a verification finished before the cutoff goes with its events and outbox rows; a younger one and a pending one stay",
          arguments: Kind.allCases)
    func finishedBeforeCutoff(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        try await Self.finished(store, "old", number: "+99012345671", offset: 0, events: 3)
        try await Self.finished(store, "young", number: "+99012345672", offset: 100)
        _ = try await store.insert(StoreContractTests.verification("live", "+99012345673"), events: [EventDraft("x:one", note: "one")],
                                   at: Self.now, idempotency: nil)

        let swept = try await store.sweepFinished(before: Self.now.addingTimeInterval(50), limit: 500)
        #expect(swept == SweptVerifications(verifications: 1, events: 3, outbox: 1))
        #expect(try await store.verification(id: "old") == nil)
        #expect(try await store.recentVerification(id: "old") == nil, "no kept state answers for it either")
        #expect(try await store.events(id: "old", after: 0, limit: 100).isEmpty)
        #expect(try await store.outboxMessages(verificationId: "old").isEmpty)
        #expect(try await store.events(id: "young", after: 0, limit: 100).count == 2)
        #expect(try await store.outboxMessages(verificationId: "young").count == 1)
        #expect(try await store.sweepFinished(before: Self.now.addingTimeInterval(50), limit: 500) == SweptVerifications())

        let later = try await store.sweepFinished(before: Self.now.addingTimeInterval(86_400 * 365), limit: 500)
        #expect(later.verifications == 1, "the younger one once past the cutoff; the pending one never")
        #expect(try await store.verification(id: "young") == nil)
        #expect(try await store.verification(id: "live")?.status == .pending)
        #expect(try await store.events(id: "live", after: 0, limit: 100).count == 1)
        #expect(try await store.deadlines(limit: 10).map(\.id) == ["live"])
    }

    @Test("one call deletes at most its limit, the longest finished first", arguments: Kind.allCases)
    func limitOldestFirst(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        for index in 0..<7 {
            // Inserted newest first, so the order deleted is the finish time's, not the insert's.
            try await Self.finished(store, "v\(index)", number: "+9901234560\(index)", offset: TimeInterval(70 - index * 10),
                                    events: 1, outbox: nil)
        }
        let first = try await store.sweepFinished(before: Self.now.addingTimeInterval(1_000), limit: 3)
        #expect(first == SweptVerifications(verifications: 3, events: 3, outbox: 0))
        for index in 0..<7 {
            let kept = try await store.verification(id: "v\(index)") != nil
            #expect(kept == (index < 4), "v\(index) finished at +\(70 - index * 10) s")
        }
        #expect(try await store.sweepFinished(before: Self.now.addingTimeInterval(1_000), limit: 3).verifications == 3)
        #expect(try await store.sweepFinished(before: Self.now.addingTimeInterval(1_000), limit: 3).verifications == 1)
    }

    @Test("a finished verification with a webhook still owed stays until the delivery is settled", arguments: Kind.allCases)
    func owedWebhookKeeps(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        try await Self.finished(store, "owed", number: "+99012345671", offset: 0, outbox: .pending)
        let cutoff = Self.now.addingTimeInterval(50)
        #expect(try await store.sweepFinished(before: cutoff, limit: 500) == SweptVerifications())
        #expect(try await store.verification(id: "owed") != nil)
        try await store.recordOutboxAttempt(id: "wh_owed", outcome: .dead, at: cutoff)
        #expect(try await store.sweepFinished(before: cutoff, limit: 500) == SweptVerifications(verifications: 1, events: 2, outbox: 1))
    }

    @Test("callback replay records past their window are swept, at most the limit per call; the others still refuse a replay",
          arguments: Kind.allCases)
    func callbackReplays(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        for key in ["a", "b", "c"] {
            #expect(try await store.rememberCallback(key: key, expiresAt: Self.now.addingTimeInterval(10), now: Self.now))
        }
        #expect(try await store.rememberCallback(key: "late", expiresAt: Self.now.addingTimeInterval(100), now: Self.now))
        let at = Self.now.addingTimeInterval(10)
        #expect(try await store.sweepCallbackReplays(at: at, limit: 2) == 2)
        #expect(try await store.sweepCallbackReplays(at: at, limit: 2) == 1)
        #expect(try await store.sweepCallbackReplays(at: at, limit: 2) == 0)
        #expect(try await store.rememberCallback(key: "late", expiresAt: Self.now.addingTimeInterval(200), now: at) == false)
    }

    @Test("a refused start's settled webhook goes once older than the cutoff, a pending one stays, at most the limit",
          arguments: Kind.allCases)
    func unownedWebhooks(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        func row(_ id: String, _ offset: TimeInterval) -> OutboxMessage {
            OutboxMessage(id: id, endpoint: "ep", verificationId: "", type: "verification.blocked", payload: [1],
                          createdAt: Self.now.addingTimeInterval(offset))
        }
        try await store.enqueueOutbox([row("b_old1", 0), row("b_old2", 1), row("b_pending", 2), row("b_young", 100)])
        for id in ["b_old1", "b_old2", "b_young"] {
            try await store.recordOutboxAttempt(id: id, outcome: .delivered, at: Self.now)
        }
        let cutoff = Self.now.addingTimeInterval(50)
        #expect(try await store.sweepFinished(before: cutoff, limit: 1) == SweptVerifications(outbox: 1))
        #expect(try await store.sweepFinished(before: cutoff, limit: 10) == SweptVerifications(outbox: 1))
        #expect(try await store.outboxMessages(verificationId: "").map(\.id).sorted() == ["b_pending", "b_young"])
    }
}
