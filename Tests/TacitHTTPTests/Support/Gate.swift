import Synchronization

/// Holds handlers until the test opens it, and lets the test await how many arrived,
/// so no test sleeps to wait for anything.
final class Gate: Sendable {
    fileprivate struct State {
        var open = false
        var arrived = 0
        var held: [CheckedContinuation<Void, Never>] = []
        var watchers: [(Int, CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// Called by a handler: counts the arrival and waits until the gate opens.
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (go, ready) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                state.arrived += 1
                let ready = state.takeWatchers()
                if state.open { return (true, ready) }
                state.held.append(continuation)
                return (false, ready)
            }
            ready.forEach { $0.resume() }
            if go { continuation.resume() }
        }
    }

    /// Suspends until at least `count` handlers have arrived.
    func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.arrived >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets every held and future handler through.
    func open() {
        let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.held = [] }
            return state.held
        }
        held.forEach { $0.resume() }
    }

    var arrivals: Int { state.withLock { $0.arrived } }
}

extension Gate.State {
    fileprivate mutating func takeWatchers() -> [CheckedContinuation<Void, Never>] {
        let ready = watchers.filter { $0.0 <= arrived }.map(\.1)
        watchers.removeAll { $0.0 <= arrived }
        return ready
    }
}
