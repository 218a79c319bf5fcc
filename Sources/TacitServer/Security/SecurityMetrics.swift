import Foundation
import Synchronization

/// Security counters for `/metrics`: refusals by reason and the send-to-verify conversion.
final class SecurityMetrics: Sendable {
    private struct State {
        var refusals: [String: Int] = [:]
        var decisions: [String: Int] = [:]
        var conversion: Double?
        var alerts = 0
    }
    private let state = Mutex(State())

    /// `where` is `start`, `send` or `check`; `reason` a stable slug such as `prefix_denied`.
    func refused(_ reason: String, at stage: String) {
        state.withLock { $0.refusals["stage=\"\(stage)\",reason=\"\(reason)\"", default: 0] += 1 }
    }

    /// One fraud decision about a start (docs/fraud.md#decisions): `decision` is `blocked`,
    /// `monitored` or `bypassed`, `rule` the rule's slug (`line_type`, `prefix_volume`,
    /// `safe_list`…).
    func decided(_ decision: String, rule: String) {
        state.withLock { $0.decisions["decision=\"\(decision)\",rule=\"\(rule)\"", default: 0] += 1 }
    }

    func decisions(_ decision: String, rule: String) -> Int {
        state.withLock { $0.decisions["decision=\"\(decision)\",rule=\"\(rule)\"", default: 0] }
    }

    func conversion(_ ratio: Double, alert: Bool) {
        state.withLock { state in
            state.conversion = ratio
            if alert { state.alerts += 1 }
        }
    }

    func refusals(_ reason: String, at stage: String) -> Int {
        state.withLock { $0.refusals["stage=\"\(stage)\",reason=\"\(reason)\"", default: 0] }
    }

    func render() -> String {
        let snapshot = state.withLock { $0 }
        var lines = ["# HELP tacit_security_refusals_total Requests and sends refused by a limit or a destination"
                     + " rule.",
                     "# TYPE tacit_security_refusals_total counter"]
        for (key, value) in snapshot.refusals.sorted(by: { $0.key < $1.key }) {
            lines.append("tacit_security_refusals_total{\(key)} \(value)")
        }
        lines += ["# HELP tacit_fraud_decisions_total Starts the fraud rules blocked, would have blocked"
                  + " (monitored) or let through unjudged (bypassed), by rule.",
                  "# TYPE tacit_fraud_decisions_total counter"]
        for (key, value) in snapshot.decisions.sorted(by: { $0.key < $1.key }) {
            lines.append("tacit_fraud_decisions_total{\(key)} \(value)")
        }
        lines += ["# HELP tacit_send_conversion_ratio Completed code verifications per code sent,"
                  + " over the last full window.",
                  "# TYPE tacit_send_conversion_ratio gauge",
                  "tacit_send_conversion_ratio \(snapshot.conversion.map { String($0) } ?? "NaN")",
                  "# HELP tacit_send_conversion_alerts_total Windows whose conversion fell below the threshold.",
                  "# TYPE tacit_send_conversion_alerts_total counter",
                  "tacit_send_conversion_alerts_total \(snapshot.alerts)"]
        return lines.joined(separator: "\n") + "\n"
    }
}
