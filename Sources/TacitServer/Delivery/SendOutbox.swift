import Foundation
import Synchronization
import TacitCore
import TacitCrypto
import TacitStore

/// What the runner and the send worker share about queued sends: the doorbell the runner
/// rings after a commit that queued one, the rows it hands over in memory, the waiters of
/// requests waiting for their own send, the observers' stream, and how a code is sealed
/// into its row.
final class SendOutbox: Sendable {
    /// How long a request that queued a send waits for its answer before it answers with
    /// the state as it then is (`TACIT_SEND_WAIT_MS`).
    let waitBound: TimeInterval
    let wakeup: Wakeup
    let waiters = SendWaiters()
    let handoffs = SendHandoffs()
    private let fields: SealedFields
    private let reported: AsyncStream<SendReport>.Continuation
    /// Rows the worker took from the store rather than from a handoff.
    private let recovered = Atomic(0)
    /// Every send that ended, in order (the newest 256 are kept until read).
    let reports: AsyncStream<SendReport>

    init(fields: SealedFields, waitBound: TimeInterval, wakeup: Wakeup = Wakeup()) {
        self.fields = fields
        self.waitBound = waitBound
        self.wakeup = wakeup
        (reports, reported) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// The row for the code issued for `step`. The sealed text names the verification and
    /// step, so a row's code opens only for the row it was written for. While a worker runs
    /// here the row is written already leased to it, since the worker takes it from memory
    /// after the commit (`hand`) instead of claiming it; otherwise it is due at once.
    func row(verificationId: String, step: Int, channel: Channel, code: String, at: Date) throws -> QueuedSend {
        let sealed = try fields.seal(Array(Self.bound(verificationId, step, code).utf8))
        let due = handoffs.isOpen ? at.addingTimeInterval(SendWorker.lease) : at
        return QueuedSend(id: QueuedSend.key(verificationId: verificationId, step: step),
                          verificationId: verificationId, step: step, channel: channel.rawValue, sealedCode: sealed,
                          createdAt: at, dueAt: due)
    }

    /// After the commit that wrote `rows`: the worker gets the leased ones with the state
    /// they committed with, and is woken. Rows written due at once are the claim query's.
    func hand(_ rows: [QueuedSend], verification: Verification) {
        guard !rows.isEmpty else { return }
        let leased = rows.filter { $0.dueAt > $0.createdAt }
        if !leased.isEmpty { _ = handoffs.hand(leased, verification: verification) }
        wakeup.signal()
    }

    /// The code in `row`, nil when no key of the ring opens it or it was written for another row.
    func code(in row: QueuedSend) -> String? {
        guard let opened = try? fields.open(row.sealedCode) else { return nil }
        let text = String(decoding: opened, as: UTF8.self)
        let prefix = Self.bound(row.verificationId, row.step, "")
        guard text.hasPrefix(prefix) else { return nil }
        return String(text.dropFirst(prefix.count))
    }

    func report(_ row: QueuedSend, _ result: SendReport.Result) {
        reported.yield(SendReport(sendId: row.id, verificationId: row.verificationId, step: row.step, result: result))
    }

    func finish() { reported.finish() }

    func noteRecovered(_ count: Int) { recovered.add(count, ordering: .relaxed) }

    /// The recovered rows' counter, for `/metrics`: non-zero after a restart that found
    /// sends owed, or when the worker fell behind by more than a lease.
    func renderMetrics() -> String {
        let help = "Code messages a send worker took from the store rather than from the commit that wrote them: "
            + "left by a stopped process or another instance, or kept past their lease behind a full worker."
        return """
            # HELP tacit_sends_recovered_total \(help)
            # TYPE tacit_sends_recovered_total counter
            tacit_sends_recovered_total \(recovered.load(ordering: .relaxed))

            """
    }

    private static func bound(_ verificationId: String, _ step: Int, _ code: String) -> String {
        "\(verificationId):\(step):\(code)"
    }
}
