import Foundation
import TacitCore
import TacitStore

/// Where the fraud rules' decisions about starts go besides their answers (docs/fraud.md#decisions):
/// `/metrics`, the security log, and for a refused start the `verification.blocked` webhook,
/// whose outbox rows commit before the refusal is answered, so it is as durable as any webhook.
struct FraudDecisions: Sendable {
    let metrics: SecurityMetrics
    let log: SecurityLog
    /// The outbox; nil when the store keeps none (the webhook is then not sent).
    let outbox: (any OutboxStore)?
    let webhooks: WebhookPlanner
    let clock: any TacitClock
    /// Told after rows were written, so delivery starts at once.
    let outboxWritten: @Sendable () -> Void

    /// Counts and logs a refused start as the other start refusals are, and enqueues its webhook
    /// for each endpoint of the application that takes it. An application with no such endpoint
    /// costs no store write. A store that can't take the rows loses the webhook, not the refusal.
    func blocked(_ refusal: FraudRefusal) async {
        metrics.refused(refusal.rule, at: "start")
        metrics.decided("blocked", rule: refusal.rule)
        log.warning("refused a verification start: \(refusal.rule)" + (refusal.region.map { " (region \($0))" } ?? ""))
        let rows = webhooks.outbox(for: refusal, at: clock.now())
        guard let outbox, !rows.isEmpty else { return }
        do {
            try await outbox.enqueueOutbox(rows)
            outboxWritten()
        } catch {
            log.warning("could not queue the verification.blocked webhook of a refused start (\(refusal.rule))")
        }
    }

    /// Counts and logs what a rule in monitor mode would have refused and let through.
    func monitored(_ rule: String, channel: Channel, region: String?) {
        metrics.decided("monitored", rule: rule)
        log.warning("monitored a verification start: \(rule) would have refused \(channel.rawValue)"
                    + (region.map { " (region \($0))" } ?? ""))
    }
}
