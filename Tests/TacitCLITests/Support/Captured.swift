import Synchronization
import TacitCLI

/// Standard output or error of a command run in process: everything written so far, and a
/// wait for a line to appear.
final class Captured: TextOutput {
    private struct State {
        var text = ""
        var closed = false
        var watchers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextWatcher = 0
    }

    private let state = Mutex(State())

    func write(_ text: String) {
        let watchers = state.withLock { state in
            state.text += text
            return Array(state.watchers.values)
        }
        watchers.forEach { $0.yield() }
    }

    /// Everything written so far.
    var text: String { state.withLock { $0.text } }

    /// Nothing more will be written: a wait for text that isn't there ends.
    func close() {
        let watchers = state.withLock { state in
            state.closed = true
            return Array(state.watchers.values)
        }
        watchers.forEach { $0.finish() }
    }

    /// Everything written once it contains `marker`; nil when the output closed (the command
    /// ended) or the task was cancelled first.
    func text(containing marker: String) async -> String? {
        let (changes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = continuation
            if state.closed { continuation.finish() }
            return state.nextWatcher
        }
        defer { _ = state.withLock { $0.watchers.removeValue(forKey: id) } }
        var iterator = changes.makeAsyncIterator()
        repeat {
            let now = text
            if now.contains(marker) { return now }
        } while await iterator.next() != nil
        let last = text
        return last.contains(marker) ? last : nil
    }
}
