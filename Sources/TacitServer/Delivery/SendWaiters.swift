import Foundation
import Synchronization
import TacitCore

/// Where a request waits for the send its change queued, up to a short bound, and where
/// the send worker says how each send ended. A send may end before its request starts to
/// wait (the worker was already awake), so the newest results are kept for a while.
final class SendWaiters: Sendable {
    /// How many results are kept for requests not waiting yet: far more than can end
    /// between one commit and its request's wait.
    static let kept = 256

    private struct Waiter {
        var continuation: CheckedContinuation<WorkflowRunner.Performed?, Never>
        var deadline: Date
    }
    private struct State {
        var waiting: [String: Waiter] = [:]
        var ended: [String: WorkflowRunner.Performed] = [:]
        var order: [String] = []
        /// The worker has stopped: nothing will end a send here any more.
        var closed = false
    }
    private let state = Mutex(State())
    /// Ends each wait at its bound: one sleeping task for the earliest bound, not one per wait.
    private let alarm = DeadlineAlarm()

    /// The send `key` ended, leaving `performed`: its request, if waiting, goes on.
    func ended(_ key: String, _ performed: WorkflowRunner.Performed) {
        let waiter = state.withLock { state -> CheckedContinuation<WorkflowRunner.Performed?, Never>? in
            if let waiter = state.waiting.removeValue(forKey: key) { return waiter.continuation }
            state.ended[key] = performed
            state.order.append(key)
            if state.order.count > Self.kept { state.ended[state.order.removeFirst()] = nil }
            return nil
        }
        waiter?.resume(returning: performed)
    }

    /// The worker stopped: every request waiting goes on at once, and later ones don't wait.
    /// A timer firing while the application drains would otherwise wait on a clock that
    /// may never reach its bound.
    func close() {
        let waiting = state.withLock { state -> [CheckedContinuation<WorkflowRunner.Performed?, Never>] in
            state.closed = true
            defer { state.waiting = [:] }
            return state.waiting.values.map(\.continuation)
        }
        waiting.forEach { $0.resume(returning: nil) }
    }

    /// What the send `key` left, once it ends, or nil at `deadline` on `clock`, whichever comes first.
    func wait(for key: String, until deadline: Date, clock: any TacitClock) async -> WorkflowRunner.Performed? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WorkflowRunner.Performed?, Never>) in
                let now: (Bool, WorkflowRunner.Performed?) = state.withLock { state in
                    if let performed = state.ended.removeValue(forKey: key) {
                        state.order.removeAll { $0 == key }
                        return (true, performed)
                    }
                    if Task.isCancelled || state.closed || deadline <= clock.now() { return (true, nil) }
                    state.waiting[key] = Waiter(continuation: continuation, deadline: deadline)
                    return (false, nil)
                }
                if now.0 {
                    continuation.resume(returning: now.1)
                } else {
                    alarm.arm(deadline, clock: clock) { [self] in expire(clock: clock) }
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiting.removeValue(forKey: key) }
            waiter?.continuation.resume(returning: nil)
        }
    }

    /// The alarm rang: every wait whose bound has come goes on with nil, and the alarm is
    /// armed for the earliest bound still ahead.
    private func expire(clock: any TacitClock) {
        let (due, next) = state.withLock { state -> ([Waiter], Date?) in
            let now = clock.now()
            var due: [Waiter] = []
            var next: Date?
            for (key, waiter) in state.waiting {
                if waiter.deadline <= now {
                    due.append(waiter)
                    state.waiting[key] = nil
                } else {
                    next = min(next ?? waiter.deadline, waiter.deadline)
                }
            }
            return (due, next)
        }
        due.forEach { $0.continuation.resume(returning: nil) }
        if let next { alarm.arm(next, clock: clock) { [self] in expire(clock: clock) } }
    }
}
