/// Tasks waiting until a recording fake has seen a number of calls: kept under the fake's
/// own lock, resumed outside it. A waiter whose task is cancelled is let go at once, so a
/// test's time limit ends a wait for a call that never comes instead of hanging the run.
struct CountWaiters {
    private var waiting: [(ticket: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var issued = 0

    /// A number naming one wait, taken before it starts so that its cancellation can find it.
    mutating func ticket() -> Int {
        issued += 1
        return issued
    }

    /// Keeps `continuation` until `reached(_:)` sees `count`; false when `seen` already has,
    /// or when the waiting task is already cancelled.
    mutating func wait(_ ticket: Int, for count: Int, seen: Int,
                       _ continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard seen < count, !Task.isCancelled else { return false }
        waiting.append((ticket, count, continuation))
        return true
    }

    /// Takes out the waiters that `seen` calls satisfy, for the caller to resume.
    mutating func reached(_ seen: Int) -> [CheckedContinuation<Void, Never>] {
        let ready = waiting.filter { $0.count <= seen }.map(\.continuation)
        waiting.removeAll { $0.count <= seen }
        return ready
    }

    /// Takes out the wait `ticket` names, for the caller to resume, when it still waits.
    mutating func cancel(_ ticket: Int) -> CheckedContinuation<Void, Never>? {
        guard let index = waiting.firstIndex(where: { $0.ticket == ticket }) else { return nil }
        return waiting.remove(at: index).continuation
    }
}
