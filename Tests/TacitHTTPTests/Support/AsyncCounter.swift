import Synchronization

/// A counter a test can await reaching a value, instead of sleeping.
final class AsyncCounter: Sendable {
    private struct State {
        var value = 0
        var watchers: [(Int, CheckedContinuation<Void, Never>, ticket: Int)] = []
        var tickets = 0
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

    /// Suspends until the counter reaches `target`, or the task is cancelled: a test's time
    /// limit then ends a wait for a count that never comes.
    func wait(for target: Int) async {
        let ticket = state.withLock { state in
            state.tickets += 1
            return state.tickets
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.value >= target || Task.isCancelled { return true }
                    state.watchers.append((target, continuation, ticket))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.watchers.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                return state.watchers.remove(at: index).1
            }
            waiting?.resume()
        }
    }
}
