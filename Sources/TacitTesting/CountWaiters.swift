/// Tasks waiting until a recording fake has seen a number of calls: kept under the fake's
/// own lock, resumed outside it.
struct CountWaiters {
    private var waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Keeps `continuation` until `reached(_:)` sees `count`; false when `seen` already has.
    mutating func wait(for count: Int, seen: Int, _ continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard seen < count else { return false }
        waiting.append((count, continuation))
        return true
    }

    /// Takes out the waiters that `seen` calls satisfy, for the caller to resume.
    mutating func reached(_ seen: Int) -> [CheckedContinuation<Void, Never>] {
        let ready = waiting.filter { $0.count <= seen }.map(\.continuation)
        waiting.removeAll { $0.count <= seen }
        return ready
    }
}
