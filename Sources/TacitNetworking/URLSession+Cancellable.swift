import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

extension URLSession {
    /// `data(for:)` whose cancellation can neither deadlock nor crash.
    ///
    /// On Linux, FoundationNetworking's own `data(for:)` cancels the task synchronously
    /// from inside the Swift task's cancellation, while the session's queue may be
    /// resuming that same Swift task: each waits for the other forever. Cancelling the
    /// URLSession task from elsewhere instead races its completion, and
    /// FoundationNetworking traps when a finished task is cancelled ("a task that is not
    /// in the registry"). So a cancelled call returns `CancellationError` at once and its
    /// URLSession task is left to finish (or time out) on its own, its answer ignored.
    public func cancellableData(for request: URLRequest) async throws -> (Data, URLResponse) {
        let pending = PendingCall()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard pending.begin(continuation) else { return }
                let task = dataTask(with: request) { data, response, error in
                    if let data, let response, error == nil {
                        pending.finish(.success((data, response)))
                    } else {
                        pending.finish(.failure(error ?? URLError(.badServerResponse)))
                    }
                }
                task.resume()
            }
        } onCancel: {
            pending.finish(.failure(CancellationError()))
        }
    }
}

/// One call's continuation, resumed exactly once: by the answer or by cancellation.
private final class PendingCall: Sendable {
    typealias Continuation = CheckedContinuation<(Data, URLResponse), Error>
    private struct State {
        var continuation: Continuation?
        var outcome: Result<(Data, URLResponse), Error>?
    }
    private let state = Mutex(State())

    /// False when the call was cancelled before it started (it is then already resumed).
    func begin(_ continuation: Continuation) -> Bool {
        let early = state.withLock { state -> Result<(Data, URLResponse), Error>? in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    func finish(_ outcome: Result<(Data, URLResponse), Error>) {
        let continuation = state.withLock { state -> Continuation? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: outcome)
    }
}
