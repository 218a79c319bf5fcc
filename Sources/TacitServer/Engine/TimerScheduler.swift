import Foundation
import TacitCore
import TacitStore

/// One scheduler for every pending verification's step timer: a min-heap of
/// deadlines and a single task that sleeps until the soonest. Cancelling or moving a
/// timer only updates the map; stale heap entries are skipped when they surface.
public actor TimerScheduler {
    private var deadlines: [String: Date] = [:]
    private var heap = DeadlineHeap()
    private let clock: any TacitClock
    private var sleeper: Task<Void, Error>?
    private var sleepingUntil: Date?
    /// The latest firing pass; each pass waits for the one before, so passes never overlap.
    private var firing: Task<Void, Never>?

    public init(clock: any TacitClock) {
        self.clock = clock
    }

    /// How many timers are armed (a gauge for /metrics).
    public var count: Int { deadlines.count }

    public func schedule(_ id: String, at deadline: Date) {
        deadlines[id] = deadline
        heap.push(deadline, id)
        if let sleepingUntil, deadline < sleepingUntil { sleeper?.cancel() }
    }

    /// Arms many timers in one call (re-arming after a restart).
    public func schedule(_ many: [Deadline]) {
        for deadline in many {
            deadlines[deadline.id] = deadline.at
            heap.push(deadline.at, deadline.id)
        }
        sleeper?.cancel()
    }

    public func cancel(_ id: String) {
        deadlines[id] = nil
    }

    /// Removes and returns the ids whose deadline has passed, soonest first.
    public func popDue() -> [String] {
        let now = clock.now()
        var due: [String] = []
        while let top = heap.peek, top.at <= now {
            heap.pop()
            if deadlines[top.id] == top.at {
                deadlines[top.id] = nil
                due.append(top.id)
            }
        }
        return due
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
        let previous = firing
        let pass = Task {
            await previous?.value
            for id in await self.popDue() { await fire(id) }
        }
        firing = pass
        await pass.value
    }

    private func sleepUntilNext() async {
        while let top = heap.peek, deadlines[top.id] != top.at { heap.pop() }
        let until = heap.peek?.at ?? clock.now().addingTimeInterval(3600)
        let clock = self.clock
        let task = Task { try await clock.sleep(until: until) }
        sleeper = task
        sleepingUntil = until
        _ = try? await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        sleeper = nil
        sleepingUntil = nil
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
