import Foundation
import TacitServer

/// How long `tacit serve` keeps finished verifications (also `TACIT_RETENTION_DAYS` or a
/// config line).
extension ServerSettings {
    static let retentionValued: Set<String> = ["retention-days"]

    static let retentionUsage = """
          --retention-days N    days a finished verification is kept, with its events (default 30)
        """

    static func applyRetention(_ configuration: inout ServerConfiguration, _ setting: (String) -> String?) throws {
        guard let value = setting("retention-days") else { return }
        // At least a day: a retention shorter than that would delete a verification while
        // its webhooks, idempotent replays and the caller's own follow-up still refer to it.
        guard let days = Int(value), (1...36_500).contains(days) else {
            throw Arguments.UsageError(message: "--retention-days must be a whole number of days from 1 to 36500")
        }
        configuration.retentionDays = days
    }
}
