import Foundation
import Synchronization
import TacitServer

/// The `jti`s of the Vonage JWTs accepted lately, so a token is good once. Bounded in
/// memory: an entry is kept only while its token could still pass the `iat` window, and
/// when the cache is full the oldest entry goes and raises a floor instead, below which
/// every token is refused as stale. So a replay is refused either way, whatever the load;
/// at worst, under a flood, a token has to be fresher than the window says.
final class JTIReplayCache: Sendable {
    let capacity: Int
    let window: TimeInterval
    private struct State {
        var seen: [String: Date] = [:]
        /// Issue times, oldest first, with their jti (tokens mostly arrive in order).
        var order: [(Date, String)] = []
        var head = 0
        var floor = Date.distantPast
    }
    private let state = Mutex(State())

    init(capacity: Int = 100_000, window: TimeInterval) {
        self.capacity = capacity
        self.window = window
    }

    /// Records `jti`, issued at `issuedAt`; false when it was seen already or is older than the floor.
    func admit(_ jti: String, issuedAt: Date, now: Date) -> Bool {
        state.withLock { state in
            expire(&state, before: now.addingTimeInterval(-window - 60))
            guard issuedAt > state.floor, state.seen[jti] == nil else { return false }
            if state.seen.count >= capacity, state.head < state.order.count {
                let (oldest, id) = state.order[state.head]
                state.head += 1
                state.seen[id] = nil
                state.floor = max(state.floor, oldest)
            }
            state.seen[jti] = issuedAt
            state.order.append((issuedAt, jti))
            return true
        }
    }

    var count: Int { state.withLock { $0.seen.count } }

    private func expire(_ state: inout State, before limit: Date) {
        while state.head < state.order.count, state.order[state.head].0 < limit {
            let id = state.order[state.head].1
            if state.seen[id] == state.order[state.head].0 { state.seen[id] = nil }
            state.head += 1
        }
        if state.head > 1024, state.head * 2 > state.order.count {
            state.order.removeFirst(state.head)
            state.head = 0
        }
    }
}
