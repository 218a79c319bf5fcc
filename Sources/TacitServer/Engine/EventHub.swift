import Foundation
import Synchronization
import TacitCore

/// Fans committed timeline events out to live subscribers (SSE) of each verification.
///
/// Events come from this instance's own writes (`publish`, right after each commit) and,
/// when the store is shared, from other instances' writes read back from the store
/// (`ChangeRelay`). The hub delivers each seq of a followed verification once whichever
/// way it came first: its own write's notice arrives after the write was published, or
/// a remote read races a local publish, and the later copy is dropped here.
public final class EventHub: Sendable {
    /// Called with each committed batch of one verification's events, in seq order within
    /// the batch, on the publisher's thread right after the commit. It must not block:
    /// with a thousand subscribers it runs a thousand times per commit.
    public typealias Receiver = @Sendable ([TimelineEvent]) -> Void

    /// A receiver's registration, to end it with `unsubscribe`.
    public struct Subscription: Sendable, Hashable {
        let requestId: String
        let id: UInt64
    }

    /// One followed verification: its receivers and the seqs delivered to them so far.
    /// Dropped with its last receiver, so only what someone follows costs memory.
    struct Followed {
        var receivers: [UInt64: Receiver] = [:]
        var delivered: Set<Int> = []
    }

    struct State {
        var followed: [String: Followed] = [:]
        var nextID: UInt64 = 0
    }
    let state = Mutex(State())

    public init() {}

    /// Calls `receive` with the verification's events committed from now on, until `unsubscribe`.
    public func subscribe(_ requestId: String, receive: @escaping Receiver) -> Subscription {
        state.withLock { state in
            state.nextID += 1
            state.followed[requestId, default: Followed()].receivers[state.nextID] = receive
            return Subscription(requestId: requestId, id: state.nextID)
        }
    }

    public func unsubscribe(_ subscription: Subscription) {
        state.withLock { state in
            state.followed[subscription.requestId]?.receivers[subscription.id] = nil
            if state.followed[subscription.requestId]?.receivers.isEmpty == true {
                state.followed[subscription.requestId] = nil
            }
        }
    }

    /// A stream of the verification's events committed from now on. It ends when the
    /// subscriber stops reading.
    public func subscribe(_ requestId: String) -> AsyncStream<TimelineEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TimelineEvent.self,
                                                            bufferingPolicy: .bufferingNewest(10_000))
        let subscription = subscribe(requestId) { events in
            for event in events { continuation.yield(event) }
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(subscription) }
        return stream
    }

    /// Hands committed events to every receiver of their verification, synchronously,
    /// leaving out any seq already delivered.
    public func publish(_ events: [TimelineEvent]) {
        guard let requestId = events.first?.requestId else { return }
        let (targets, fresh) = state.withLock { state -> ([Receiver], [TimelineEvent]) in
            guard state.followed[requestId] != nil else { return ([], []) }
            // Through the subscript each time, so the set is changed in place, not copied.
            let fresh = events.filter { state.followed[requestId]!.delivered.insert($0.seq).inserted }
            return (Array(state.followed[requestId]!.receivers.values), fresh)
        }
        guard !fresh.isEmpty else { return }
        for receive in targets {
            receive(fresh)
        }
    }

    /// Whether someone here follows the verification and hasn't been handed every one of
    /// the seqs `after + 1 ... through`: whether a write another instance committed needs
    /// reading. A lookup and nothing more for a verification no one here follows.
    func misses(_ requestId: String, after: Int, through: Int) -> Bool {
        state.withLock { state in
            guard let followed = state.followed[requestId], after < through else { return false }
            return ((after + 1)...through).contains { !followed.delivered.contains($0) }
        }
    }

    /// Every followed verification, with the last seq delivered to its receivers (0 when
    /// none yet): where to read from after the change feed may have missed writes.
    func followedVerifications() -> [(requestId: String, delivered: Int)] {
        state.withLock { state in state.followed.map { ($0.key, $0.value.delivered.max() ?? 0) } }
    }

    public var subscriberCount: Int { state.withLock { $0.followed.values.reduce(0) { $0 + $1.receivers.count } } }
}
