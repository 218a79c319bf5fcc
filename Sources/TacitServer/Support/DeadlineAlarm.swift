import Foundation
import Synchronization
import TacitCore

/// Calls back at the earliest of many deadlines with one sleeping task. A wait that raced
/// its deadline in a task group (one child sleeping, one waiting) cost every wait two task
/// creations and a timer armed and cancelled: on the send path, that was twice per code
/// sent (the worker's doorbell and the request waiting for its send). Here a task sleeps
/// only when a deadline comes before every one already armed; the callback arms the next.
final class DeadlineAlarm: Sendable {
    /// The earliest deadline a task sleeps until, if any.
    private let armed = Mutex<Date?>(nil)

    /// Makes sure `ring` runs at `deadline` on `clock` or before it: a task already sleeping
    /// until an earlier deadline will do, as long as `ring` arms again for what is left.
    /// `ring` may also run late for a deadline it no longer has a use for; it must check.
    func arm(_ deadline: Date, clock: any TacitClock, ring: @escaping @Sendable () -> Void) {
        let sleeps = armed.withLock { armed -> Bool in
            if let earlier = armed, earlier <= deadline { return false }
            armed = deadline
            return true
        }
        guard sleeps else { return }
        Task { [self] in
            try? await clock.sleep(until: deadline)
            armed.withLock { if $0 == deadline { $0 = nil } }
            ring()
        }
    }
}
