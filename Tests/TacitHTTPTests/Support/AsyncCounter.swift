import Synchronization

/// A counter a test can await reaching a value, instead of sleeping.
final class AsyncCounter: Sendable {
    private struct State {
        var value = 0
        var watchers: [(Int, CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    var value: Int { state.withLock { $0.value } }

    func increment() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.value += 1
            let ready = state.watchers.filter { $0.0 <= state.value }.map(\.1)
            state.watchers.removeAll { $0.0 <= state.value }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    /// Suspends until the counter reaches `target`.
    func wait(for target: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.value >= target { return true }
                state.watchers.append((target, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}
