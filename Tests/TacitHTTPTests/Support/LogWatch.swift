import Synchronization

/// Lines a test server logged, with a way to await one.
final class LogWatch: Sendable {
    private struct State {
        var lines: [String] = []
        var waiters: [(@Sendable (String) -> Bool, CheckedContinuation<String, Never>)] = []
    }

    private let state = Mutex(State())

    func add(_ line: String) {
        let ready = state.withLock { state -> [CheckedContinuation<String, Never>] in
            state.lines.append(line)
            let ready = state.waiters.filter { $0.0(line) }.map(\.1)
            state.waiters.removeAll { $0.0(line) }
            return ready
        }
        ready.forEach { $0.resume(returning: line) }
    }

    /// The first line that matches, already logged or still to come.
    func first(where matches: @escaping @Sendable (String) -> Bool) async -> String {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> String? in
                if let line = state.lines.first(where: matches) { return line }
                state.waiters.append((matches, continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    var all: [String] { state.withLock { $0.lines } }
}
