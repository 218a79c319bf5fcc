import Foundation
import Synchronization
import TacitCore
import TacitStore

/// One scheduler for every pending verification's step timer: a min-heap of
/// deadlines and a single task that sleeps until the soonest. Cancelling or moving a
/// timer only updates the map; stale heap entries are skipped when they surface.
/// Arming and cancelling are synchronous under a lock (they happen on every
/// transition, where an actor hop would cost more than the work).
public final class TimerScheduler: Sendable {
    private struct State {
        var deadlines: [String: Date] = [:]
        var heap = DeadlineHeap()
        var sleeper: Task<Void, Error>?
        var sleepingUntil: Date?
        /// The latest firing pass; each pass waits for the one before, so passes never overlap.
        var firing: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let clock: any TacitClock

    public init(clock: any TacitClock) {
        self.clock = clock
    }

    /// How many timers are armed (a gauge for /metrics).
    public var count: Int { state.withLock { $0.deadlines.count } }

    public func schedule(_ id: String, at deadline: Date) {
        let wake = state.withLock { state -> Task<Void, Error>? in
            state.deadlines[id] = deadline
            state.heap.push(deadline, id)
            guard let until = state.sleepingUntil, deadline < until else { return nil }
            return state.sleeper
        }
        wake?.cancel()
    }

    /// Arms many timers in one call (re-arming after a restart).
    public func schedule(_ many: [Deadline]) {
        let wake = state.withLock { state -> Task<Void, Error>? in
            for deadline in many {
                state.deadlines[deadline.id] = deadline.at
                state.heap.push(deadline.at, deadline.id)
            }
            return state.sleeper
        }
        wake?.cancel()
    }

    /// Arms the deadlines this scheduler doesn't already hold at that instant (what the
    /// deadline poller found in the store); returns how many it armed.
    @discardableResult
    public func adopt(_ many: [Deadline]) -> Int {
        let (adopted, wake) = state.withLock { state -> (Int, Task<Void, Error>?) in
            var adopted = 0
            var soonest: Date?
            for deadline in many where state.deadlines[deadline.id] != deadline.at {
                state.deadlines[deadline.id] = deadline.at
                state.heap.push(deadline.at, deadline.id)
                adopted += 1
                soonest = min(soonest ?? deadline.at, deadline.at)
            }
            guard let soonest, let until = state.sleepingUntil, soonest < until else { return (adopted, nil) }
            return (adopted, state.sleeper)
        }
        wake?.cancel()
        return adopted
    }

    public func cancel(_ id: String) {
        state.withLock { _ = $0.deadlines.removeValue(forKey: id) }
    }

    /// Removes and returns the ids whose deadline has passed, soonest first.
    public func popDue() -> [String] {
        let now = clock.now()
        return state.withLock { state in
            var due: [String] = []
            while let top = state.heap.peek, top.at <= now {
                state.heap.pop()
                if state.deadlines[top.id] == top.at {
                    state.deadlines[top.id] = nil
                    due.append(top.id)
                }
            }
            return due
        }
    }

    /// Fires due timers until cancelled. `fire` is awaited for each due id, so firing
    /// is as fast as the store allows and never piles up tasks.
    public func run(fire: @escaping @Sendable (String) async -> Void) async {
        while !Task.isCancelled {
            await fireDue(fire)
            await sleepUntilNext()
        }
    }

    /// Fires every timer due now, after any pass already running has finished; returns
    /// when they have all been handled (what tests call after moving a ManualClock).
    public func fireDue(_ fire: @escaping @Sendable (String) async -> Void) async {
        let pass = state.withLock { state -> Task<Void, Never> in
            let previous = state.firing
            let pass = Task {
                await previous?.value
                for id in self.popDue() { await fire(id) }
            }
            state.firing = pass
            return pass
        }
        await pass.value
    }

    private func sleepUntilNext() async {
        let clock = self.clock
        let task = state.withLock { state -> Task<Void, Error> in
            while let top = state.heap.peek, state.deadlines[top.id] != top.at { state.heap.pop() }
            let until = state.heap.peek?.at ?? clock.now().addingTimeInterval(3600)
            let task = Task { try await clock.sleep(until: until) }
            state.sleeper = task
            state.sleepingUntil = until
            return task
        }
        _ = try? await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        state.withLock { state in
            state.sleeper = nil
            state.sleepingUntil = nil
        }
    }
}

/// A binary min-heap of (deadline, id).
struct DeadlineHeap {
    private var items: [(at: Date, id: String)] = []

    var peek: (at: Date, id: String)? { items.first }

    mutating func push(_ at: Date, _ id: String) {
        items.append((at, id))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].at < items[parent].at else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func pop() -> (at: Date, id: String)? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left].at < items[smallest].at { smallest = left }
            if right < items.count, items[right].at < items[smallest].at { smallest = right }
            if smallest == parent { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }
}
