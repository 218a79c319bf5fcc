import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

extension URLSession {
    /// `data(for:)` whose cancellation can't deadlock.
    ///
    /// On Linux, FoundationNetworking's own `data(for:)` cancels the task synchronously
    /// from inside the Swift task's cancellation (under its status lock), while the
    /// session's queue may be resuming that same Swift task: each waits for the other
    /// forever (seen when a flow driver cancelled a silent check's last device call).
    /// Here the URLSession task is cancelled from another queue instead.
    func cancellableData(for request: URLRequest) async throws -> (Data, URLResponse) {
        let pending = PendingDataTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = dataTask(with: request) { data, response, error in
                    if let data, let response, error == nil {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }
                pending.start(task)
            }
        } onCancel: {
            pending.cancel()
        }
    }
}

/// The URLSession task behind one call, cancelled off the cancelling thread.
private final class PendingDataTask: Sendable {
    /// URLSessionTask is thread-safe (its state lives on the session's queue), but not marked Sendable everywhere.
    private struct Handle: @unchecked Sendable { let task: URLSessionDataTask }
    private let state = Mutex<(task: Handle?, cancelled: Bool)>((nil, false))

    func start(_ task: URLSessionDataTask) {
        let cancelled = state.withLock { state in
            state.task = Handle(task: task)
            return state.cancelled
        }
        task.resume()
        if cancelled { Self.cancelLater(Handle(task: task)) }
    }

    func cancel() {
        let handle = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        if let handle { Self.cancelLater(handle) }
    }

    private static func cancelLater(_ handle: Handle) {
        DispatchQueue.global().async { handle.task.cancel() }
    }
}
