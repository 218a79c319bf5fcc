import Foundation
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
final class ConversionMonitor: Sendable {
    private let windows: any ConversionStore
    private let clock: any TacitClock
    private let configuration: SecurityConfiguration
    private let metrics: SecurityMetrics
    private let log: SecurityLog

    init(windows: any ConversionStore, clock: any TacitClock, configuration: SecurityConfiguration, metrics: SecurityMetrics,
         log: SecurityLog) {
        self.windows = windows
        self.clock = clock
        self.configuration = configuration
        self.metrics = metrics
        self.log = log
    }

    func sent() async { await record(.sent) }
    func verified() async { await record(.verified) }

    /// Counts one event in the current window; a window closed by it is judged here. The
    /// monitor only warns, so a store that fails to count costs one event, never the request.
    private func record(_ event: ConversionEvent) async {
        let length = max(configuration.conversionWindow, 1)
        let slot = Int64((clock.now().timeIntervalSince1970 / length).rounded(.down))
        guard let closed = try? await windows.countConversion(event, slot: slot) else { return }
        judge(closed)
    }

    private func judge(_ closed: ConversionWindow) {
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
