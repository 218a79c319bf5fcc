import Foundation
import Testing
import TacitCore
import TacitStore
import TacitTesting

/// Disabled webhook endpoints in the outbox claim, the same against every store (see
/// `StoreContractTests`): the claim reads them from the store, so an endpoint disabled
/// through one instance is skipped by every instance's worker.
@Suite("Outbox claims and disabled endpoints store contract")
struct OutboxDisabledContractTests {
    typealias Kind = StoreContractTests.Kind
    static let now = StoreContractTests.now

    static func message(_ id: String, endpoint: String) -> OutboxMessage {
        OutboxMessage(id: id, endpoint: endpoint, verificationId: "v1", type: "verification.cancelled", payload: [1], createdAt: now)
    }

    @Test("a message due to a disabled endpoint is claimed once, settled as disabled, never leased; others are leased as before",
          arguments: Kind.allCases)
    func disabledAreSettled(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        _ = try await store.insert(StoreContractTests.verification("v1"), events: [], outbox: [Self.message("m1", endpoint: "gone")],
                                   at: Self.now, idempotency: nil)
        try await store.disableWebhookEndpoint("gone", at: Self.now)
        #expect(try await store.outboxMessage(id: "m1")?.state == .disabled, "pending messages go with the endpoint")
        _ = try await store.update(id: "v1", at: Self.now) { _ in
            StoreChange((), outbox: [Self.message("m2", endpoint: "gone"), Self.message("m3", endpoint: "live")])
        }
        let claimed = try await store.claimOutbox(now: Self.now, lease: 30, limit: 10)
        #expect(claimed.map(\.id).sorted() == ["m2", "m3"])
        #expect(claimed.first { $0.id == "m2" }?.state == .disabled)
        #expect(claimed.first { $0.id == "m3" }?.state == .pending)
        #expect(try await store.outboxMessage(id: "m2")?.state == .disabled)
        #expect(try await store.outboxMessage(id: "m2")?.attempts == 0, "nothing was attempted")
        let later = try await store.claimOutbox(now: Self.now.addingTimeInterval(30), lease: 30, limit: 10)
        #expect(later.map(\.id) == ["m3"], "the disabled one is not claimed again")
    }

    @Test("a message enqueued without a verification is claimed, leased and settled like the others",
          arguments: Kind.allCases)
    func enqueuedWithoutVerification(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        var blocked = Self.message("b1", endpoint: "live")
        blocked.verificationId = ""
        blocked.type = "verification.blocked"
        try await store.enqueueOutbox([blocked])
        #expect(try await store.nextOutboxDue() == Self.now)
        let claimed = try await store.claimOutbox(now: Self.now, lease: 30, limit: 10)
        #expect(claimed.map(\.id) == ["b1"] && claimed.first?.payload == [1] && claimed.first?.verificationId == "")
        #expect(try await store.claimOutbox(now: Self.now, lease: 30, limit: 10).isEmpty, "leased")
        try await store.recordOutboxAttempt(id: "b1", outcome: .delivered, at: Self.now)
        #expect(try await store.outboxMessages(verificationId: "").map(\.state) == [.delivered])
    }
}
