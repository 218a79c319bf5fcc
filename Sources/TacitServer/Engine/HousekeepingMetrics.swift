import Foundation
import Synchronization
import TacitStore

/// The housekeeper's counters for `/metrics`: rows deleted, by kind, and when the last
/// complete round ran.
final class HousekeepingMetrics: Sendable {
    /// What a row swept was; the label value in `/metrics`.
    enum Kind: String, CaseIterable, Sendable {
        case verifications
        case events
        case outbox
        case idempotency
        case rateLimits = "rate_limits"
        case callbackReplays = "callback_replays"
    }

    private struct State {
        var swept: [Kind: Int] = [:]
        var lastSweep: Date?
    }
    private let state = Mutex(State())

    init() {}

    func swept(_ kind: Kind, _ rows: Int) {
        state.withLock { $0.swept[kind, default: 0] += rows }
    }

    func swept(_ rows: SweptVerifications) {
        state.withLock { state in
            state.swept[.verifications, default: 0] += rows.verifications
            state.swept[.events, default: 0] += rows.events
            state.swept[.outbox, default: 0] += rows.outbox
        }
    }

    /// A round finished without an error at `time` (the housekeeper's clock).
    func finishedSweep(at time: Date) {
        state.withLock { $0.lastSweep = time }
    }

    func rows(_ kind: Kind) -> Int { state.withLock { $0.swept[kind] ?? 0 } }

    func render() -> String {
        let snapshot = state.withLock { $0 }
        var lines = ["# HELP tacit_housekeeping_swept_rows_total Rows deleted by housekeeping and retention, by kind.",
                     "# TYPE tacit_housekeeping_swept_rows_total counter"]
        for kind in Kind.allCases {
            lines.append("tacit_housekeeping_swept_rows_total{kind=\"\(kind.rawValue)\"} \(snapshot.swept[kind] ?? 0)")
        }
        lines += ["# HELP tacit_housekeeping_last_sweep_timestamp_seconds When the last complete housekeeping round ran"
                  + " (0: none yet).",
                  "# TYPE tacit_housekeeping_last_sweep_timestamp_seconds gauge",
                  "tacit_housekeeping_last_sweep_timestamp_seconds"
                  + " \(Int(snapshot.lastSweep?.timeIntervalSince1970 ?? 0))"]
        return lines.joined(separator: "\n") + "\n"
    }
}
