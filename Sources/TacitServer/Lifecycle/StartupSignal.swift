import Synchronization

/// A value that becomes known once (the port an application listens on), awaited by
/// any number of callers without polling; a failed start hands them the error instead.
public final class StartupSignal<Value: Sendable>: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Value, Error>])
        case done(Result<Value, Error>)
    }
    private let state = Mutex(State.waiting([]))

    public init() {}

    /// Hands `value` to every waiter, now and later. Only the first outcome counts.
    public func succeed(_ value: Value) { settle(.success(value)) }

    /// Hands `error` to every waiter, now and later. Only the first outcome counts.
    public func fail(_ error: Error) { settle(.failure(error)) }

    /// The outcome, once there is one.
    public func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let known = state.withLock { state -> Result<Value, Error>? in
                switch state {
                case .done(let result): return result
                case .waiting(var waiters):
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return nil
                }
            }
            if let known { continuation.resume(with: known) }
        }
    }

    /// Whether an outcome is known.
    public var isSettled: Bool {
        state.withLock { if case .done = $0 { return true } else { return false } }
    }

    private func settle(_ result: Result<Value, Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .done(result)
            return waiters
        }
        waiters.forEach { $0.resume(with: result) }
    }
}
