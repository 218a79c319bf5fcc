import Foundation

extension TacitApplication {
    /// Runs one housekeeping round now and waits for it: what the housekeeper does each
    /// time it wakes, callable by tests after moving a ManualClock (and by an embedder
    /// that wants the retention applied at once).
    public func sweepNow() async {
        guard let housekeeper = assembled.withLock({ $0?.housekeeper }) else { return }
        await housekeeper.sweep()
    }
}
