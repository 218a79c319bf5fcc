import Foundation
import Synchronization
import Testing
import TacitCore
import TacitStore
import TacitTesting
@testable import TacitServer

/// The change relay on a fake feed and the in-memory store: what it reads and publishes
/// for each notice, with no database in the way.
@Suite("Change relay", .timeLimit(.minutes(1)))
struct ChangeRelayTests {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    /// A feed the test speaks through.
    final class FakeFeed: ChangeFeed {
        let notices: AsyncStream<StoreNotice>
        let send: AsyncStream<StoreNotice>.Continuation
        init() { (notices, send) = AsyncStream.makeStream() }
        func listen(_ receive: @escaping @Sendable (StoreNotice) -> Void) async {
            for await notice in notices { receive(notice) }
        }
        func follow(_ verificationId: String) async throws {}
    }

    /// How often the relay rang the webhook worker's doorbell.
    final class Rings: Sendable {
        private let count = Atomic(0)
        func ring() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    static func verification(_ id: String) -> Verification {
        Verification(id: id, phoneNumber: "+99012345670", options: VerificationOptions(workflow: [.sms]), clientTokenHash: [1], createdAt: now)
    }

    /// Appends an event to the stored timeline, as another instance's write would; returns it.
    static func write(_ store: InMemoryStore, _ id: String, _ label: String) async throws -> [TimelineEvent] {
        try await store.update(id: id, at: now) { _ in StoreChange((), events: [EventDraft(label, note: label)]) }?.events ?? []
    }

    /// Runs a relay over `store` while `body` runs, with its hub, feed and doorbell count.
    static func relaying(_ store: InMemoryStore, _ body: (EventHub, FakeFeed, Rings) async throws -> Void) async throws {
        let hub = EventHub(), feed = FakeFeed(), rings = Rings()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await ChangeRelay(feed: feed, store: store, hub: hub, outboxWritten: { rings.ring() }).run()
            }
            defer { group.cancelAll() }
            try await body(hub, feed, rings)
        }
    }

    static func next(_ stream: AsyncStream<TimelineEvent>) async throws -> TimelineEvent? {
        try await within(10) {
            for await event in stream { return event }
            return nil
        }
    }

    @Test("a followed verification's remote events are read and published once; its own published events are not sent again")
    func publishesRemoteOnce() async throws {
        let store = InMemoryStore()
        _ = try await store.insert(Self.verification("a"), events: [EventDraft("x:one", note: "one")], at: Self.now, idempotency: nil)
        try await Self.relaying(store) { hub, feed, _ in
            let stream = hub.subscribe("a")
            _ = try await Self.write(store, "a", "x:two")
            feed.send.yield(.events(verificationId: "a", after: 1, through: 2))
            #expect(try await Self.next(stream)?.label == "x:two")

            // This instance's own write: published as it committed, then its notice comes back.
            hub.publish(try await Self.write(store, "a", "x:three"))
            #expect(try await Self.next(stream)?.label == "x:three")
            feed.send.yield(.events(verificationId: "a", after: 2, through: 3))
            _ = try await Self.write(store, "a", "x:four")
            feed.send.yield(.events(verificationId: "a", after: 3, through: 4))
            #expect(try await Self.next(stream)?.seq == 4, "seq 3 was not delivered a second time")
        }
    }

    @Test("a resync reads every followed verification from its last delivered seq and rings the webhook worker; an outbox notice rings it")
    func resyncCatchesUp() async throws {
        let store = InMemoryStore()
        _ = try await store.insert(Self.verification("a"), events: [EventDraft("x:one", note: "one")], at: Self.now, idempotency: nil)
        try await Self.relaying(store) { hub, feed, rings in
            let stream = hub.subscribe("a")
            hub.publish(try await Self.write(store, "a", "x:two"))
            #expect(try await Self.next(stream)?.seq == 2)
            // Written while the feed was away: no notice for them.
            _ = try await Self.write(store, "a", "x:three")
            _ = try await Self.write(store, "a", "x:four")
            feed.send.yield(.resync)
            #expect(try await Self.next(stream)?.seq == 3)
            #expect(try await Self.next(stream)?.seq == 4)
            #expect(rings.value == 1)
            feed.send.yield(.outbox)
            feed.send.yield(.events(verificationId: "b", after: 0, through: 1))
            _ = try await Self.write(store, "a", "x:five")
            feed.send.yield(.events(verificationId: "a", after: 4, through: 5))
            #expect(try await Self.next(stream)?.seq == 5, "a notice about a verification no one follows delivers nothing")
            #expect(rings.value == 2)
        }
    }
}
