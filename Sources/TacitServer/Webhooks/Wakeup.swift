import Foundation
import Synchronization
import TacitCore

/// A doorbell for one waiting task: `signal` wakes it at once, or the next `wait` when
/// nobody is waiting yet, so a signal is never lost between two waits.
final class Wakeup: Sendable {
    private struct Waiter {
        var continuation: CheckedContinuation<Void, Never>
        var deadline: Date
    }
    private struct State {
        var signalled = false
        var waiter: Waiter?
    }
    private let state = Mutex(State())
    /// Ends a wait at its deadline. A busy loop waits again and again until the same
    /// deadline (its next look at the store), which then costs no new timer.
    private let alarm = DeadlineAlarm()

    func signal() {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiter else {
                state.signalled = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.continuation.resume()
    }

    /// Returns at `deadline` on `clock`, on a signal, or on cancellation, whichever comes first.
    func wait(until deadline: Date, clock: any TacitClock) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.signalled {
                        state.signalled = false
                        return true
                    }
                    if Task.isCancelled || deadline <= clock.now() { return true }
                    state.waiter = Waiter(continuation: continuation, deadline: deadline)
                    return false
                }
                if resumeNow {
                    continuation.resume()
                } else {
                    alarm.arm(deadline, clock: clock) { [self] in expire(clock: clock) }
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.continuation.resume()
        }
    }

    /// The alarm rang: the waiter whose deadline has come goes on; one waiting for a later
    /// deadline (it came after the alarm was armed) has the alarm armed for it.
    private func expire(clock: any TacitClock) {
        let (due, later) = state.withLock { state -> (Waiter?, Date?) in
            guard let waiter = state.waiter else { return (nil, nil) }
            guard waiter.deadline <= clock.now() else { return (nil, waiter.deadline) }
            state.waiter = nil
            return (waiter, nil)
        }
        due?.continuation.resume()
        if let later { alarm.arm(later, clock: clock) { [self] in expire(clock: clock) } }
    }
}
