import Synchronization
import TacitCore

/// Encoded SSE frames of recent events, shared by every stream: with a thousand
/// subscribers on one verification, each event is encoded once, not a thousand times.
final class FrameCache: Sendable {
    private struct Key: Hashable {
        var requestId: String
        var seq: Int
    }
    private struct State {
        var frames: [Key: [UInt8]] = [:]
        var order: [Key] = []
    }
    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int = 4_096) {
        self.capacity = capacity
    }

    func frame(_ event: TimelineEvent) -> [UInt8] {
        let key = Key(requestId: event.requestId, seq: event.seq)
        if let cached = state.withLock({ $0.frames[key] }) { return cached }
        let frame = EventStreamer.frame(event)
        state.withLock { state in
            guard state.frames.updateValue(frame, forKey: key) == nil else { return }
            state.order.append(key)
            if state.order.count > capacity { state.frames[state.order.removeFirst()] = nil }
        }
        return frame
    }
}
