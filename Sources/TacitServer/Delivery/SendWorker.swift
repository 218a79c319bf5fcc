import Foundation
import Synchronization
import TacitCore
import TacitStore

/// Carries out the send outbox: takes due rows under a lease, opens each code, hands the
/// message to the sender and applies its answer in the transition that deletes the row.
/// Runs as one long-lived task (`run`) until cancelled; rows survive a crash, so on start
/// it sends what a killed process left, once that process's lease has run out.
final class SendWorker: Sendable {
    /// How long a taken row stays reserved: renewed every `renewal` while its send is in
    /// flight, so a slow provider never loses it to another worker, and a worker that dies
    /// leaves it to be taken again within this.
    static let lease: TimeInterval = 10
    static let renewal: TimeInterval = 3
    /// How often the outbox is looked at when nothing is due (rows written by another instance).
    static let idlePoll: TimeInterval = 30
    /// Sends in flight at once; a slow provider holds one slot per message, not the worker.
    static let capacity = 64

    let runner: WorkflowRunner
    var outbox: SendOutbox { runner.sends }
    private let inFlight = Mutex(0)

    init(runner: WorkflowRunner) { self.runner = runner }

    func run() async {
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                let claimed = await claim()
                for row in claimed { group.addTask { await self.carry(row) } }
                await outbox.wakeup.wait(until: await nextLook(claimed: claimed), clock: runner.clock)
            }
            outbox.waiters.close()
        }
        outbox.finish()
    }

    /// Takes as many due rows as there are free slots.
    private func claim() async -> [QueuedSend] {
        let free = Self.capacity - inFlight.withLock { $0 }
        guard free > 0, let rows = try? await runner.store.claimSends(now: runner.clock.now(), lease: Self.lease, limit: free) else {
            return []
        }
        inFlight.withLock { $0 += rows.count }
        return rows
    }

    /// When to look again: at the next row due, unless every slot is taken (a send that
    /// ends rings the doorbell), and at the idle poll at the latest.
    private func nextLook(claimed: [QueuedSend]) async -> Date {
        let now = runner.clock.now()
        let idle = now.addingTimeInterval(Self.idlePoll)
        if inFlight.withLock({ $0 }) >= Self.capacity { return idle }
        do {
            return try await runner.store.nextSendDue().map { min(max($0, now), idle) } ?? idle
        } catch {
            return now.addingTimeInterval(1)
        }
    }

    private func carry(_ row: QueuedSend) async {
        defer {
            inFlight.withLock { $0 -= 1 }
            outbox.wakeup.signal()
        }
        switch await plan(row) {
        case .later: return
        case .drop(let current):
            try? await runner.store.dropSends(ids: [row.id])
            if let current { outbox.waiters.ended(row.id, WorkflowRunner.Performed(verification: current)) }
            outbox.report(row, .dropped)
        case .send(let message, let channel):
            let result = await send(message, holding: row)
            if Task.isCancelled, !result.isAccepted {
                // Stopping, with no acceptance: the next worker sends it at once.
                try? await runner.store.leaseSend(id: row.id, until: runner.clock.now())
                outbox.report(row, .interrupted)
                return
            }
            if let performed = await runner.applyDelivery(result, of: row, channel: channel) {
                outbox.waiters.ended(row.id, performed)
            } else {
                try? await runner.store.dropSends(ids: [row.id])
            }
            outbox.report(row, .sent(accepted: result.isAccepted))
        }
    }

    private enum Plan {
        case send(OutboundMessage, Channel)
        /// With the verification as it stands, when it still exists.
        case drop(Verification?)
        /// The store did not answer: the row is taken again when its lease runs out.
        case later
    }

    /// Whether `row` is still owed, and its message when it is.
    private func plan(_ row: QueuedSend) async -> Plan {
        let verification: Verification?
        do { verification = try await runner.store.verification(id: row.verificationId) } catch { return .later }
        guard let verification, verification.status == .pending, verification.currentStep == row.step else {
            return .drop(verification)
        }
        guard let channel = Channel(rawValue: row.channel), let code = outbox.code(in: row) else {
            FileHandle.standardError.write(Data("tacit: a queued send for \(row.verificationId) could not be opened; dropped\n".utf8))
            return .drop(verification)
        }
        return .send(runner.message(for: verification, step: row.step, channel: channel, code: code, key: row.id), channel)
    }

    /// The sender's answer, the row's lease renewed while it is awaited.
    private func send(_ message: OutboundMessage, holding row: QueuedSend) async -> DeliveryResult {
        let sender = runner.sender
        return await withTaskGroup(of: DeliveryResult?.self) { group in
            group.addTask { await sender.send(message) }
            group.addTask {
                await self.renew(row.id)
                return nil
            }
            while let next = await group.next() {
                guard let result = next else { continue }
                group.cancelAll()
                return result
            }
            return .refused(reason: "provider_error")
        }
    }

    private func renew(_ id: String) async {
        let clock = runner.clock
        while (try? await clock.sleep(until: clock.now().addingTimeInterval(Self.renewal))) != nil {
            try? await runner.store.leaseSend(id: id, until: clock.now().addingTimeInterval(Self.lease))
        }
    }
}
