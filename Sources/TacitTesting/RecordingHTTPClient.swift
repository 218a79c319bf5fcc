import Foundation
import Synchronization
import TacitCore

/// The outbound HTTP port's fake: keeps every request and answers from a script
/// (by default 200 with an empty body), so no test reaches a real host.
public final class RecordingHTTPClient: OutboundHTTPClient {
    public typealias Answer = @Sendable (OutboundRequest) throws(OutboundHTTPError) -> OutboundResponse

    private struct State {
        var requests: [OutboundRequest] = []
        var answer: Answer
        var waiters = CountWaiters()
    }
    private let state: Mutex<State>

    public init(answer: @escaping Answer = { _ in OutboundResponse(status: 200) }) {
        state = Mutex(State(answer: answer))
    }

    /// Every request sent so far, oldest first.
    public var requests: [OutboundRequest] { state.withLock { $0.requests } }

    /// Replaces how later requests are answered.
    public func answer(with answer: @escaping Answer) {
        state.withLock { $0.answer = answer }
    }

    public func send(_ request: OutboundRequest) async throws(OutboundHTTPError) -> OutboundResponse {
        let (answer, ready) = state.withLock { state -> (Answer, [CheckedContinuation<Void, Never>]) in
            state.requests.append(request)
            return (state.answer, state.waiters.reached(state.requests.count))
        }
        ready.forEach { $0.resume() }
        return try answer(request)
    }

    /// Suspends until at least `count` requests were sent, or the task is cancelled.
    public func waitFor(_ count: Int) async {
        let ticket = state.withLock { $0.waiters.ticket() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state in
                    state.waiters.wait(ticket, for: count, seen: state.requests.count, continuation)
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.cancel(ticket) }?.resume()
        }
    }
}
