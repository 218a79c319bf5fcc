import Foundation
import Synchronization
import TacitCore

/// Counters for `/metrics`, in Prometheus text format.
public final class Metrics: Sendable {
    private struct State {
        var requests: [RequestKey: Int] = [:]
        var outcomes: [String: Int] = [:]
        var sends: [SendKey: Int] = [:]
        var started = 0
    }
    /// A counter's labels are kept as their values and written out only when `/metrics` is
    /// read: every request counts one, and building its label text each time cost a string.
    private struct RequestKey: Hashable {
        let method: String, route: String, status: Int
        var labels: String { "method=\"\(method)\",route=\"\(route)\",status=\"\(status)\"" }
    }
    private struct SendKey: Hashable {
        let channel: Channel, accepted: Bool
        var labels: String { "channel=\"\(channel.rawValue)\",result=\"\(accepted ? "accepted" : "refused")\"" }
    }
    private let state = Mutex(State())
    /// Blocks other parts append to the exposition text (e.g. security counters).
    private let sections = Mutex<[@Sendable () -> String]>([])

    public init() {}

    func addSection(_ render: @escaping @Sendable () -> String) { sections.withLock { $0.append(render) } }

    func request(route: String, method: String, status: Int) {
        let key = RequestKey(method: method, route: route, status: status)
        state.withLock { $0.requests[key, default: 0] += 1 }
    }

    func started() { state.withLock { $0.started += 1 } }

    func webhook(_ event: WebhookEvent) {
        let outcome: String
        switch event {
        case .completed: outcome = "completed"
        case .failed: outcome = "failed"
        case .expired: outcome = "expired"
        case .cancelled: outcome = "cancelled"
        case .channelStarted, .channelFailed, .blocked: return
        }
        state.withLock { $0.outcomes[outcome, default: 0] += 1 }
    }

    func sent(_ channel: Channel, accepted: Bool) {
        let key = SendKey(channel: channel, accepted: accepted)
        state.withLock { $0.sends[key, default: 0] += 1 }
    }

    /// The exposition text; gauges are read by the caller and passed in.
    func render(pending: Int, timers: Int, subscribers: Int) -> String {
        let snapshot = state.withLock { $0 }
        var lines: [String] = []
        lines.append("# HELP tacit_http_requests_total HTTP requests by route and status.")
        lines.append("# TYPE tacit_http_requests_total counter")
        for (labels, value) in snapshot.requests.map({ ($0.key.labels, $0.value) }).sorted(by: { $0.0 < $1.0 }) {
            lines.append("tacit_http_requests_total{\(labels)} \(value)")
        }
        lines.append("# HELP tacit_verifications_started_total Verifications started.")
        lines.append("# TYPE tacit_verifications_started_total counter")
        lines.append("tacit_verifications_started_total \(snapshot.started)")
        lines.append("# HELP tacit_verifications_total Verifications ended, by outcome.")
        lines.append("# TYPE tacit_verifications_total counter")
        for outcome in ["completed", "failed", "expired", "cancelled"] {
            lines.append("tacit_verifications_total{outcome=\"\(outcome)\"} \(snapshot.outcomes[outcome] ?? 0)")
        }
        lines.append("# HELP tacit_messages_total Code messages handed to a sender.")
        lines.append("# TYPE tacit_messages_total counter")
        for (labels, value) in snapshot.sends.map({ ($0.key.labels, $0.value) }).sorted(by: { $0.0 < $1.0 }) {
            lines.append("tacit_messages_total{\(labels)} \(value)")
        }
        lines.append("# HELP tacit_verifications_pending Verifications pending now.")
        lines.append("# TYPE tacit_verifications_pending gauge")
        lines.append("tacit_verifications_pending \(pending)")
        lines.append("# HELP tacit_timers_pending Step timers armed.")
        lines.append("# TYPE tacit_timers_pending gauge")
        lines.append("tacit_timers_pending \(timers)")
        lines.append("# HELP tacit_sse_subscribers Live timeline subscribers.")
        lines.append("# TYPE tacit_sse_subscribers gauge")
        lines.append("tacit_sse_subscribers \(subscribers)")
        return lines.joined(separator: "\n") + "\n" + sections.withLock { $0 }.map { $0() }.joined()
    }
}
