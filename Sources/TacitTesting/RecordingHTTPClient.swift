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
        var waiters: [(Int, CheckedContinuation<Void, Never>)] = []
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
            let count = state.requests.count
            let ready = state.waiters.filter { $0.0 <= count }.map(\.1)
            state.waiters.removeAll { $0.0 <= count }
            return (state.answer, ready)
        }
        ready.forEach { $0.resume() }
        return try answer(request)
    }

    /// Suspends until at least `count` requests were sent.
    public func waitFor(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.requests.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }
}
