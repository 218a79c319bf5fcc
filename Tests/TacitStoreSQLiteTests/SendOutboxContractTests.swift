import Foundation
import Testing
import TacitCore
import TacitStore
import TacitTesting

/// The send outbox, the same against every store (see `StoreContractTests`).
@Suite("Send outbox store contract")
struct SendOutboxContractTests {
    typealias Kind = StoreContractTests.Kind
    static let now = StoreContractTests.now

    static func row(_ id: String, step: Int = 0, at: Date = now) -> QueuedSend {
        QueuedSend(id: QueuedSend.key(verificationId: id, step: step), verificationId: id, step: step, channel: "sms",
                   sealedCode: [9, 9, 9], createdAt: at)
    }

    @Test("a row commits with its verification and is due at once; a leased row is not taken again until its lease runs out",
          arguments: Kind.allCases)
    func leaseHoldsARow(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        _ = try await store.insert(StoreContractTests.verification("v1"), events: [], outbox: [], sends: [Self.row("v1")],
                                   at: Self.now, idempotency: nil)
        #expect(try await store.nextSendDue() == Self.now)
        let first = try await store.claimSends(now: Self.now, lease: 10, limit: 8)
        #expect(first == [Self.row("v1")])
        #expect(try await store.claimSends(now: Self.now.addingTimeInterval(9.9), lease: 10, limit: 8).isEmpty,
                "a second worker finds it held")
        #expect(try await store.sendOutboxGauge(now: Self.now.addingTimeInterval(5))
                == SendOutboxGauge(queued: 0, leased: 1, oldestCreatedAt: Self.now))
        let again = try await store.claimSends(now: Self.now.addingTimeInterval(10), lease: 10, limit: 8)
        #expect(again.map(\.id) == [Self.row("v1").id], "taken again once the lease ran out")
        try await store.leaseSend(id: Self.row("v1").id, until: Self.now.addingTimeInterval(40))
        #expect(try await store.claimSends(now: Self.now.addingTimeInterval(39), lease: 10, limit: 8).isEmpty, "a renewed lease holds")
        #expect(try await store.nextSendDue() == Self.now.addingTimeInterval(40))
    }

    @Test("an update queues rows and deletes the ones it settles; dropped rows are gone; a duplicate key writes nothing",
          arguments: Kind.allCases)
    func updatesQueueAndSettle(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        _ = try await store.insert(StoreContractTests.verification("v1"), events: [], outbox: [], sends: [Self.row("v1")],
                                   at: Self.now, idempotency: nil)
        _ = try await store.update(id: "v1", at: Self.now) { _ in
            StoreChange((), sends: [Self.row("v1", step: 1)], sendsDone: [Self.row("v1").id])
        }
        #expect(try await store.queuedSends(verificationId: "v1").map(\.step) == [1])
        await #expect(throws: (any Error).self) {
            _ = try await store.update(id: "v1", at: Self.now) { _ in
                StoreChange((), events: [EventDraft("x:dup", note: "dup")], sends: [Self.row("v1", step: 1)])
            }
        }
        #expect(try await store.events(id: "v1", after: 0, limit: 10).isEmpty, "the refused change wrote nothing")
        try await store.dropSends(ids: [Self.row("v1", step: 1).id])
        #expect(try await store.queuedSends(verificationId: "v1").isEmpty)
        #expect(try await store.nextSendDue() == nil)
        #expect(try await store.sendOutboxGauge(now: Self.now) == SendOutboxGauge())
    }

    @Test("a verification's rows are read and swept by its own id, never with those of an id that begins with it",
          arguments: Kind.allCases)
    func rowsBelongToTheirOwnId(kind: Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        // "v1_2" starts with "v1" and the separator of a send's key: its keys sort inside v1's.
        _ = try await store.insert(StoreContractTests.verification("v1", "+99012345671"), events: [], outbox: [],
                                   sends: [Self.row("v1"), Self.row("v1", step: 1)], at: Self.now, idempotency: nil)
        _ = try await store.insert(StoreContractTests.verification("v1_2", "+99012345672"), events: [], outbox: [],
                                   sends: [Self.row("v1_2")], at: Self.now, idempotency: nil)
        #expect(try await store.queuedSends(verificationId: "v1").map(\.step).sorted() == [0, 1])
        #expect(try await store.queuedSends(verificationId: "v1_2").map(\.id) == [Self.row("v1_2").id])

        _ = try await store.update(id: "v1", at: Self.now) { v in
            v = StoreContractTests.cancelled(v, at: Self.now)
            return StoreChange(())
        }
        _ = try await store.sweepFinished(before: Self.now.addingTimeInterval(60), limit: 10)
        #expect(try await store.queuedSends(verificationId: "v1").isEmpty, "the swept verification's rows went with it")
        #expect(try await store.queuedSends(verificationId: "v1_2").count == 1, "the pending one's row stayed")
    }
}
