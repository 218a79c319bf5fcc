import Foundation
import Synchronization

/// Suspended tasks by key, each resumed once: with a value, or with nil when its task is
/// cancelled or the waiters are closed. Used for the answers awaited by sequence number,
/// the window's free slots and the next bound link.
final class SMPPWaiters<Value: Sendable>: Sendable {
    private struct State {
        var waiting: [UInt64: CheckedContinuation<Value?, Never>] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    /// Waits for `key`'s value. `registered` runs once the waiter is in place (it sends the
    /// request whose answer is awaited), and not at all when the wait ends at once.
    func wait(_ key: UInt64, registered: () -> Void = {}) async -> Value? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Under the lock, so a cancellation either is seen here or finds the waiter.
                let placed = state.withLock { state in
                    guard !state.closed, !Task.isCancelled else { return false }
                    state.waiting[key] = continuation
                    return true
                }
                if placed { registered() } else { continuation.resume(returning: nil) }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: key) }?.resume(returning: nil)
        }
    }

    /// Resumes `key`'s waiter; false when there is none (late, or never asked for).
    @discardableResult
    func resume(_ key: UInt64, with value: Value) -> Bool {
        guard let continuation = state.withLock({ $0.waiting.removeValue(forKey: key) }) else { return false }
        continuation.resume(returning: value)
        return true
    }

    /// Resumes the waiter with the lowest key, the one that has waited longest.
    func resumeOldest(with value: Value) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<Value?, Never>? in
            guard let key = state.waiting.keys.min() else { return nil }
            return state.waiting.removeValue(forKey: key)
        }
        continuation?.resume(returning: value)
        return continuation != nil
    }

    /// Resumes every waiter with `value`; when `closing`, later waits end at once with nil.
    func resumeAll(with value: Value?, closing: Bool = false) {
        let all = state.withLock { state in
            state.closed = state.closed || closing
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        all.forEach { $0.resume(returning: value) }
    }
}
