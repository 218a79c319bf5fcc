import Foundation
import TacitCore
import TacitStore

/// What the worker does with one row: whether it is still owed, its message, and the
/// send itself.
extension SendWorker {
    enum Plan {
        case send(OutboundMessage, Channel, ComposedMessage)
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
            FileHandle.standardError.write(
                Data("tacit: a queued send for \(row.verificationId) could not be opened; dropped\n".utf8))
            return .drop(verification)
        }
        let (message, composed) = await runner.message(for: verification, step: row.step, channel: channel,
                                                       code: code, key: row.id)
        return .send(message, channel, composed)
    }

    /// The verification `job` is for, as its commit left it when that was a moment ago, else
    /// as stored (nil when it is gone).
    private func current(_ job: Job) async throws -> Verification? {
        if let committed = job.committed, runner.clock.now().timeIntervalSince(job.row.createdAt) < Self.freshness {
            return committed
        }
        return try await runner.store.verification(id: job.row.verificationId)
    }

    /// The sender's answer. The worker's loop renews the row's lease while it is awaited
    /// (`renewLeases`); a handed-over row that waited long enough for its lease to end
    /// within a renewal is renewed first.
    func send(_ message: OutboundMessage, holding row: QueuedSend) async -> DeliveryResult {
        let clock = runner.clock
        if row.dueAt.timeIntervalSince(clock.now()) < Self.renewal {
            let until = clock.now().addingTimeInterval(Self.lease)
            try? await runner.store.leaseSend(id: row.id, until: until)
            inFlight.withLock { held in if held[row.id] != nil { held[row.id] = until } }
        }
        return await runner.sender.send(message)
    }
}
