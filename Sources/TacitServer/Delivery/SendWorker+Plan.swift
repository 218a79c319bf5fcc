import Foundation
import TacitCore
import TacitStore

/// What the worker does with one row: whether it is still owed, its message, and the
/// send itself with the row's lease kept while the sender is awaited.
extension SendWorker {
    enum Plan {
        case send(OutboundMessage, Channel)
        /// With the verification as it stands, when it still exists.
        case drop(Verification?)
        /// The store did not answer: the row is taken again when its lease runs out.
        case later
    }

    /// Whether `job`'s row is still owed, and its message when it is.
    func plan(_ job: Job) async -> Plan {
        let row = job.row
        let verification: Verification?
        do { verification = try await current(job) } catch { return .later }
        guard let verification, verification.status == .pending, verification.currentStep == row.step else {
            return .drop(verification)
        }
        guard let channel = Channel(rawValue: row.channel), let code = outbox.code(in: row) else {
            FileHandle.standardError.write(Data("tacit: a queued send for \(row.verificationId) could not be opened; dropped\n".utf8))
            return .drop(verification)
        }
        return .send(runner.message(for: verification, step: row.step, channel: channel, code: code, key: row.id), channel)
    }

    /// The verification `job` is for, as its commit left it when that was a moment ago, else
    /// as stored (nil when it is gone).
    private func current(_ job: Job) async throws -> Verification? {
        if let committed = job.committed, runner.clock.now().timeIntervalSince(job.row.createdAt) < Self.freshness { return committed }
        return try await runner.store.verification(id: job.row.verificationId)
    }

    /// The sender's answer, the row's lease renewed while it is awaited. A handed-over row
    /// that waited long enough for its lease to end within a renewal is renewed first.
    func send(_ message: OutboundMessage, holding row: QueuedSend) async -> DeliveryResult {
        let sender = runner.sender
        let clock = runner.clock
        if row.dueAt.timeIntervalSince(clock.now()) < Self.renewal {
            try? await runner.store.leaseSend(id: row.id, until: clock.now().addingTimeInterval(Self.lease))
        }
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
