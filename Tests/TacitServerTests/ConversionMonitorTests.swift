import Foundation
import Synchronization
import Testing
import TacitStore
import TacitTesting
@testable import TacitServer

@Suite("Conversion monitor: counts written a second at a time")
struct ConversionMonitorTests {
    /// Process windows that count the writes made to them.
    final class CountedWindows: ConversionStore {
        let windows = ProcessConversionWindows()
        let writes = Mutex<[ConversionWindow]>([])

        func countConversions(_ counts: ConversionWindow) async throws -> ConversionWindow? {
            writes.withLock { $0.append(counts) }
            return try await windows.countConversions(counts)
        }
    }

    /// The lines the monitor logged.
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func contains(_ text: String) -> Bool { lines.withLock { $0.contains { $0.contains(text) } } }
    }

    static func monitor(_ windows: CountedWindows, clock: ManualClock, logged: Lines) -> (ConversionMonitor, SecurityMetrics) {
        var configuration = SecurityConfiguration()
        configuration.conversionWindow = 3_600
        configuration.conversionMinimumSends = 4
        let metrics = SecurityMetrics()
        let log = SecurityLog { line in logged.lines.withLock { $0.append(line) } }
        return (ConversionMonitor(windows: windows, clock: clock, configuration: configuration, metrics: metrics, log: log), metrics)
    }

    @Test("events within a second go to the store in one write, and a new window's first event writes the old one's rest before taking it whole")
    func batched() async {
        let windows = CountedWindows()
        let clock = ManualClock(start: Date(timeIntervalSince1970: 3_600 * 500_000))
        let logged = Lines()
        let (monitor, metrics) = Self.monitor(windows, clock: clock, logged: logged)
        for _ in 0..<10 { await monitor.sent() }
        await monitor.verified()
        #expect(windows.writes.withLock { $0.count } == 1, "the first event writes at once, the next ten wait for the second to pass")
        clock.advance(by: 1)
        await monitor.sent()
        #expect(windows.writes.withLock { $0.last } == ConversionWindow(slot: 500_000, sends: 10, verified: 1))
        await monitor.sent()
        clock.advance(by: 3_600)
        await monitor.sent()
        let writes = windows.writes.withLock { $0 }
        #expect(writes.count == 4)
        #expect(writes[2] == ConversionWindow(slot: 500_000, sends: 1, verified: 0), "the old window's rest is written first")
        #expect(writes[3] == ConversionWindow(slot: 500_001, sends: 1, verified: 0))
        #expect(logged.contains("conversion fell to 8% (1 of 12 codes sent)"))
        #expect(metrics.render().contains("tacit_send_conversion_alerts_total 1"))
    }
}
