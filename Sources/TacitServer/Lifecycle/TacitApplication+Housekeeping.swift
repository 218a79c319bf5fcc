import Foundation

extension TacitApplication {
    /// Runs one housekeeping round now and waits for it: what the housekeeper does each
    /// time it wakes, callable by tests after moving a ManualClock (and by an embedder
    /// that wants the retention applied at once).
    public func sweepNow() async {
        guard let housekeeper = assembled.withLock({ $0?.housekeeper }) else { return }
        await housekeeper.sweep()
    }

    /// Reads the store's deadlines due within the poll interval and arms those this
    /// instance doesn't hold, as the poller does each time it wakes; returns how many it
    /// armed. Tests call it after moving a ManualClock, then `fireDueTimers()`.
    @discardableResult
    public func pollDeadlines() async -> Int {
        guard let assembly = assembled.withLock({ $0 }) else { return 0 }
        _ = try? await assembly.rearmed.value()
        return await assembly.deadlines.poll()
    }
}
