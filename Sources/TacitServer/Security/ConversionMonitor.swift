import Foundation
import Synchronization
import TacitCore
import TacitStore

/// Watches how many sent codes end in a completed verification. A sharp drop is the
/// mark of SMS pumping (codes sent to numbers nobody reads), so when a full window
/// falls below the threshold it logs a warning and bumps a metric.
///
/// The windows live in the store (`ConversionStore`), numbered from 1970 so every instance
/// counts into the same one: pumping spread over several instances shows as it would on
/// one. The first event of a new window takes the one before it from the store and judges
/// it, so each window is judged once, by the instance that happened to close it.
///
/// Events are counted into the store a second's worth at a time (`flushInterval`), not
/// one write each: every code sent and every completed check would otherwise add a
/// transaction of its own to the store, on one row all instances share. The count held
/// here goes to the store before the first event of a new window, so one instance's
/// window is judged whole; of several instances, one that closes the window first judges
/// it without the others' last second.
final class ConversionMonitor: Sendable {
    private let windows: any ConversionStore
    private let clock: any TacitClock
    private let configuration: SecurityConfiguration
    private let metrics: SecurityMetrics
    private let log: SecurityLog
    /// What this instance counted and has not written yet, and when it last wrote.
    private let held = Mutex<(counts: ConversionWindow, written: Date)>((ConversionWindow(slot: .min), .distantPast))
    static let flushInterval: TimeInterval = 1

    init(windows: any ConversionStore, clock: any TacitClock, configuration: SecurityConfiguration,
         metrics: SecurityMetrics, log: SecurityLog) {
        self.windows = windows
        self.clock = clock
        self.configuration = configuration
        self.metrics = metrics
        self.log = log
    }

    func sent() async { await record(.sent) }
    func verified() async { await record(.verified) }

    /// Counts one event in the current window, writing what is held when a second has
    /// passed or the window is new; a window closed by it is judged here. The monitor only
    /// warns, so a store that fails to count costs the counts it was given, never the request.
    private func record(_ event: ConversionEvent) async {
        let now = clock.now()
        let length = max(configuration.conversionWindow, 1)
        let slot = Int64((now.timeIntervalSince1970 / length).rounded(.down))
        let due = held.withLock { held -> [ConversionWindow] in
            var due: [ConversionWindow] = []
            if held.counts.slot != slot {
                // The old window's last counts first, then this event at once: its write
                // takes the old window to be judged.
                if held.counts.sends + held.counts.verified > 0 { due.append(held.counts) }
                held = (ConversionWindow(slot: slot), .distantPast)
            }
            switch event {
            case .sent: held.counts.sends += 1
            case .verified: held.counts.verified += 1
            }
            if now.timeIntervalSince(held.written) >= Self.flushInterval {
                due.append(held.counts)
                held = (ConversionWindow(slot: slot), now)
            }
            return due
        }
        for counts in due {
            if let closed = try? await windows.countConversions(counts) { judge(closed) }
        }
    }

    private func judge(_ closed: ConversionWindow) {
        guard closed.sends > 0 else { return }
        let ratio = min(1, Double(closed.verified) / Double(closed.sends))
        let alert = closed.sends >= configuration.conversionMinimumSends && ratio < configuration.minimumConversion
        metrics.conversion(ratio, alert: alert)
        if alert {
            log.warning("send-to-verify conversion fell to \(Int(ratio * 100))% (\(closed.verified) of \(closed.sends)"
                        + " codes sent) "
                        + "below \(Int(configuration.minimumConversion * 100))%: possible SMS pumping")
        }
    }
}
