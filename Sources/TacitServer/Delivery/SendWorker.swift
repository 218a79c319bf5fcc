import Foundation
import Synchronization
import TacitCore
import TacitStore

/// Carries out the send outbox: takes the rows this process committed from memory, and
/// due rows from the store under a lease, opens each code, hands the message to the sender
/// and applies its answer in the transition that deletes the row. Runs as one long-lived
/// task (`run`) until cancelled; rows survive a crash, so on start it sends what a killed
/// process left, once that process's lease has run out.
final class SendWorker: Sendable {
    /// How long a taken row stays reserved: renewed by the worker's loop once `renewal` of it
    /// has run while its send is in flight, so a slow provider never loses it to another
    /// worker, and a worker that dies leaves it to be taken again within this.
    static let lease: TimeInterval = 10
    static let renewal: TimeInterval = 3
    /// How often the outbox is looked at at the latest. The next row due is known only as of
    /// the last look, and on a store several instances share, another instance's rows come
    /// after it: when that instance dies, its leased sends fall to whoever looks next. So
    /// the look is never more than 2 s away, and a dead instance's code goes out at most
    /// 2 s after its lease ends, well within the shortest channel timeout (15 s). One
    /// indexed query every 2 s on an idle instance.
    static let idlePoll: TimeInterval = 2
    /// Sends in flight at once; a slow provider holds one slot per message, not the worker.
    /// Slots are cheap (a task and a connection each), and a provider 300 ms away needs
    /// rate × 0.3 of them: 64 carried only 213 messages a second, fewer than a busy server starts.
    static let capacity = 256
    /// A handed-over row taken within this of its commit is sent from the state it committed
    /// with; one that waited longer behind a full worker reads the state again, since the
    /// verification may have ended meanwhile.
    static let freshness: TimeInterval = 1

    let runner: WorkflowRunner
    var outbox: SendOutbox { runner.sends }
    /// The rows in flight, by id, with the end of the lease last written for each: a claim
    /// that returns one of them again is not sent twice, and the loop renews them from here.
    let inFlight = Mutex([String: Date]())

    init(runner: WorkflowRunner) { self.runner = runner }

    /// One row to carry, with the state its commit left when it was handed over.
    struct Job: Sendable {
        var row: QueuedSend
        var committed: Verification?
    }

    func run() async {
        outbox.handoffs.open()
        await withDiscardingTaskGroup { group in
            // The store is looked at first at once (rows a killed process left), then when its next row falls due.
            var storeDue = runner.clock.now()
            while !Task.isCancelled {
                var jobs = takeHanded(storeDue: &storeDue)
                if storeDue <= runner.clock.now(), free() > 0 {
                    jobs += await claim()
                    storeDue = await nextStoreDue()
                }
                for job in jobs { group.addTask { await self.carry(job) } }
                await renewLeases()
                let wake = free() > 0 ? storeDue : runner.clock.now().addingTimeInterval(Self.idlePoll)
                await outbox.wakeup.wait(until: min(wake, nextRenewal()), clock: runner.clock)
            }
            outbox.waiters.close()
        }
        // Rows handed over but never started go back due at once, as an unanswered send
        // does, so the next process sends them without waiting out their lease.
        for row in outbox.handoffs.close() { try? await runner.store.leaseSend(id: row.id, until: runner.clock.now()) }
        outbox.finish()
    }

    private func free() -> Int { Self.capacity - inFlight.withLock { $0.count } }

    /// The handed-over rows for the free slots. One whose lease ran out while it waited is
    /// left to the claim, which takes it only if no other instance has meanwhile; rows the
    /// handoffs could not keep bring the next look at the store forward to their lease's end.
    private func takeHanded(storeDue: inout Date) -> [Job] {
        let (handed, leftInStore) = outbox.handoffs.take(free())
        if let leftInStore { storeDue = min(storeDue, leftInStore) }
        let now = runner.clock.now()
        if handed.contains(where: { $0.row.dueAt <= now }) { storeDue = now }
        return start(handed.filter { $0.row.dueAt > now }.map { Job(row: $0.row, committed: $0.verification) })
    }

    /// Marks `jobs` in flight, leaving out any already in flight.
    private func start(_ jobs: [Job]) -> [Job] {
        inFlight.withLock { held in
            jobs.filter { job in
                guard held[job.row.id] == nil else { return false }
                held[job.row.id] = job.row.dueAt
                return true
            }
        }
    }

    /// Takes due rows from the store for the free slots. A row also waiting in memory (its
    /// lease ran out there) is taken from the claim, under the lease the claim gave it.
    private func claim() async -> [Job] {
        let now = runner.clock.now()
        guard let rows = try? await runner.store.claimSends(now: now, lease: Self.lease, limit: free()) else {
            return []
        }
        let leased = rows.map { row in
            var row = row
            row.dueAt = now.addingTimeInterval(Self.lease)
            return Job(row: row, committed: nil)
        }
        outbox.handoffs.withdraw(Set(rows.map(\.id)))
        let jobs = start(leased)
        outbox.noteRecovered(jobs.count)
        return jobs
    }

    /// When to look at the store again: at its next row due, and at the idle poll at the latest.
    private func nextStoreDue() async -> Date {
        let now = runner.clock.now()
        let idle = now.addingTimeInterval(Self.idlePoll)
        do {
            return try await runner.store.nextSendDue().map { min(max($0, now), idle) } ?? idle
        } catch {
            return now.addingTimeInterval(1)
        }
    }

    private func carry(_ job: Job) async {
        let row = job.row
        defer {
            let wasFull = inFlight.withLock { held in
                defer { held[row.id] = nil }
                return held.count >= Self.capacity
            }
            // Only a full worker waits for a slot; any other waits for a handoff or the store,
            // and waking it for every send that ends cost a pass of its loop per message.
            if wasFull { outbox.wakeup.signal() }
        }
        switch await plan(job) {
        case .later: return
        case .drop(let current):
            try? await runner.store.dropSends(ids: [row.id])
            if let current { outbox.waiters.ended(row.id, WorkflowRunner.Performed(verification: current)) }
            outbox.report(row, .dropped)
        case .send(let message, let channel, let composed):
            let result = await send(message, holding: row)
            if Task.isCancelled, !result.isAccepted {
                // Stopping, with no acceptance: the next worker sends it at once.
                try? await runner.store.leaseSend(id: row.id, until: runner.clock.now())
                outbox.report(row, .interrupted)
                return
            }
            if let performed = await runner.applyDelivery(result, of: row, channel: channel, composed: composed) {
                outbox.waiters.ended(row.id, performed)
            } else {
                try? await runner.store.dropSends(ids: [row.id])
            }
            outbox.report(row, .sent(accepted: result.isAccepted))
        }
    }
}
