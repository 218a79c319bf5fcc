import Foundation
import Synchronization
import TacitCore

/// Watches how many sent codes end in a completed verification. A sharp drop is the
/// mark of SMS pumping (codes sent to numbers nobody reads), so when a full window
/// falls below the threshold it logs a warning and bumps a metric.
final class ConversionMonitor: Sendable {
    private struct Window {
        var start: Date
        var sends = 0
        var verified = 0
    }
    private let window: Mutex<Window>
    private let clock: any TacitClock
    private let configuration: SecurityConfiguration
    private let metrics: SecurityMetrics
    private let log: SecurityLog

    init(clock: any TacitClock, configuration: SecurityConfiguration, metrics: SecurityMetrics, log: SecurityLog) {
        self.clock = clock
        self.configuration = configuration
        self.metrics = metrics
        self.log = log
        window = Mutex(Window(start: clock.now()))
    }

    func sent() { record { $0.sends += 1 } }
    func verified() { record { $0.verified += 1 } }

    /// Closes the window when its time is up (judged lazily, on the next event), then counts.
    private func record(_ change: (inout Window) -> Void) {
        let now = clock.now()
        let closed: Window? = window.withLock { current in
            var closed: Window?
            if now.timeIntervalSince(current.start) >= configuration.conversionWindow {
                closed = current
                current = Window(start: now)
            }
            change(&current)
            return closed
        }
        if let closed { judge(closed) }
    }

    private func judge(_ closed: Window) {
        guard closed.sends > 0 else { return }
        let ratio = min(1, Double(closed.verified) / Double(closed.sends))
        let alert = closed.sends >= configuration.conversionMinimumSends && ratio < configuration.minimumConversion
        metrics.conversion(ratio, alert: alert)
        if alert {
            log.warning("send-to-verify conversion fell to \(Int(ratio * 100))% (\(closed.verified) of \(closed.sends) codes sent) "
                        + "below \(Int(configuration.minimumConversion * 100))%: possible SMS pumping")
        }
    }
}
