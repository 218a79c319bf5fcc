import Foundation
import Synchronization
import TacitCore

/// Fans committed timeline events out to live subscribers (SSE) of each verification.
public final class EventHub: Sendable {
    private struct State {
        var subscribers: [String: [UInt64: AsyncStream<TimelineEvent>.Continuation]] = [:]
        var nextID: UInt64 = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// A stream of the verification's events committed from now on. It ends when the
    /// subscriber stops reading or after `verification:summary`.
    public func subscribe(_ requestId: String) -> AsyncStream<TimelineEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TimelineEvent.self, bufferingPolicy: .bufferingNewest(10_000))
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.subscribers[requestId, default: [:]][state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.subscribers[requestId]?[id] = nil
                if state.subscribers[requestId]?.isEmpty == true { state.subscribers[requestId] = nil }
            }
        }
        return stream
    }

    public func publish(_ events: [TimelineEvent]) {
        guard let requestId = events.first?.requestId else { return }
        let targets = state.withLock { Array(($0.subscribers[requestId] ?? [:]).values) }
        for continuation in targets {
            for event in events { continuation.yield(event) }
        }
    }

    public var subscriberCount: Int { state.withLock { $0.subscribers.values.reduce(0) { $0 + $1.count } } }
}
