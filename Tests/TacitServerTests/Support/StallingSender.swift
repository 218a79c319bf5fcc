import Foundation
import Synchronization
import TacitCore

/// A provider whose first send never answers: it suspends until its task is cancelled,
/// as a send in flight when the process dies never comes back. Later sends are kept and
/// accepted at once, so a test can see what a restarted server sends.
final class StallingSender: MessageSender {
    private struct State {
        var stalled: OutboundMessage?
        var delivered: [OutboundMessage] = []
        var waiting: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())
    /// One element when the first send arrives.
    let stalls: AsyncStream<OutboundMessage>
    private let stalled: AsyncStream<OutboundMessage>.Continuation

    init() { (stalls, stalled) = AsyncStream.makeStream(of: OutboundMessage.self) }

    /// The messages accepted, after the stalled one.
    var delivered: [OutboundMessage] { state.withLock { $0.delivered } }

    func send(_ message: OutboundMessage) async -> DeliveryResult {
        let first = state.withLock { state -> Bool in
            if state.stalled != nil {
                state.delivered.append(message)
                return false
            }
            state.stalled = message
            return true
        }
        guard first else { return .accepted }
        stalled.yield(message)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    state.waiting = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.waiting = nil }
                return state.waiting
            }?.resume()
        }
        return DeliveryResult(refusal: .transient, reason: "provider_unreachable")
    }
}
