import Foundation
import Synchronization
import TacitCore

/// Fans committed timeline events out to live subscribers (SSE) of each verification.
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

    private struct State {
        var receivers: [String: [UInt64: Receiver]] = [:]
        var nextID: UInt64 = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// Calls `receive` with the verification's events committed from now on, until `unsubscribe`.
    public func subscribe(_ requestId: String, receive: @escaping Receiver) -> Subscription {
        state.withLock { state in
            state.nextID += 1
            state.receivers[requestId, default: [:]][state.nextID] = receive
            return Subscription(requestId: requestId, id: state.nextID)
        }
    }

    public func unsubscribe(_ subscription: Subscription) {
        state.withLock { state in
            state.receivers[subscription.requestId]?[subscription.id] = nil
            if state.receivers[subscription.requestId]?.isEmpty == true { state.receivers[subscription.requestId] = nil }
        }
    }

    /// A stream of the verification's events committed from now on. It ends when the
    /// subscriber stops reading.
    public func subscribe(_ requestId: String) -> AsyncStream<TimelineEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TimelineEvent.self, bufferingPolicy: .bufferingNewest(10_000))
        let subscription = subscribe(requestId) { events in
            for event in events { continuation.yield(event) }
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(subscription) }
        return stream
    }

    /// Hands committed events to every receiver of their verification, synchronously.
    public func publish(_ events: [TimelineEvent]) {
        guard let requestId = events.first?.requestId else { return }
        let targets = state.withLock { $0.receivers[requestId].map { Array($0.values) } ?? [] }
        for receive in targets {
            receive(events)
        }
    }

    public var subscriberCount: Int { state.withLock { $0.receivers.values.reduce(0) { $0 + $1.count } } }
}
