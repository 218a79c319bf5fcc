import Foundation
import TacitServer

/// How long a request waits for the code message it queued (`TACIT_SEND_WAIT_MS` or a
/// config line), and, in `--dev`, how long the handset inbox takes to answer
/// (`TACIT_DEV_INBOX_LATENCY_MS`), to see a slow provider without one.
extension ServerSettings {
    static func applySends(_ configuration: inout ServerConfiguration, _ setting: (String) -> String?) throws {
        if let value = setting("send-wait-ms") {
            guard let ms = Int(value), (0...10_000).contains(ms) else {
                throw Arguments.UsageError(
                    message: "TACIT_SEND_WAIT_MS must be a whole number of milliseconds from 0 to 10000")
            }
            configuration.sendWait = TimeInterval(ms) / 1000
        }
        if let value = setting("dev-inbox-latency-ms") {
            guard let ms = Int(value), (0...10_000).contains(ms) else {
                throw Arguments.UsageError(
                    message: "TACIT_DEV_INBOX_LATENCY_MS must be a whole number of milliseconds from 0 to 10000")
            }
            configuration.inboxLatencyMilliseconds = ms
        }
    }
}
