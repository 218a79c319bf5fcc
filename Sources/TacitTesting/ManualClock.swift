import Foundation
import Synchronization
import TacitCore

/// A clock that moves only when a test says so. Sleepers wake, in deadline order,
/// when `advance(by:)` passes their deadline.
public final class ManualClock: TacitClock {
    private struct Sleeper {
        var deadline: Date
        var continuation: CheckedContinuation<Void, Error>
    }
    private struct State {
        var now: Date
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }
    private let state: Mutex<State>

    public init(start: Date = Date(timeIntervalSince1970: 1_796_000_000)) {
        state = Mutex(State(now: start))
    }

    public func now() -> Date { state.withLock { $0.now } }

    /// The earliest deadline anyone sleeps until, if any.
    public var nextDeadline: Date? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func advance(by seconds: TimeInterval) {
        let woken: [CheckedContinuation<Void, Error>] = state.withLock { state in
            state.now = state.now.addingTimeInterval(seconds)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
                .sorted { $0.value.deadline < $1.value.deadline }
            for (id, _) in due { state.sleepers[id] = nil }
            return due.map(\.value.continuation)
        }
        woken.forEach { $0.resume() }
    }

    public func sleep(until deadline: Date) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let resumeNow: Bool = state.withLock { state in
                    if deadline <= state.now || Task.isCancelled { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }
}
