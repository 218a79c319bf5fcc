import Foundation
import TacitCore
import TacitStore

/// Arms the step timers of verifications this instance didn't change. The scheduler's
/// heap holds only what this process armed (its own transitions, and the store's
/// deadlines at start-up), so when several instances share a database, one that dies
/// leaves timers no one holds. Every `interval` the poller reads the store's pending
/// deadlines due within the next interval, off the deadline index, and hands the ones
/// not already armed to the scheduler, which fires each at its deadline: a dead
/// instance's timers fire on time as long as another instance polls.
///
/// A timer two instances hold fires on both, and that is safe: firing is a transition
/// on the stored verification, and the second finds its step already moved on and
/// changes nothing (``WorkflowRunner/timerFired(_:)``).
struct DeadlinePoller: Sendable {
    let store: any VerificationStore
    let timers: TimerScheduler
    let clock: any TacitClock
    let interval: TimeInterval
    /// At most this many deadlines per pass; the soonest come first.
    static let batch = 10_000

    /// One pass: arms what is due within the next interval; returns how many it armed.
    @discardableResult
    func poll() async -> Int {
        let cutoff = clock.now().addingTimeInterval(interval)
        do {
            return timers.adopt(try await store.deadlines(dueBy: cutoff, limit: Self.batch))
        } catch {
            FileHandle.standardError.write(
                Data("tacit: pending deadlines could not be read (\(error)); next try in \(interval) s\n".utf8))
            return 0
        }
    }

    /// Polls every `interval` until cancelled.
    func run() async {
        while !Task.isCancelled {
            do {
                try await clock.sleep(until: clock.now().addingTimeInterval(interval))
            } catch {
                return
            }
            await poll()
        }
    }
}
