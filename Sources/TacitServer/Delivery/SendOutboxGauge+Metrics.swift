import Foundation
import TacitStore

extension SendOutboxGauge {
    /// The outbox's gauges for `/metrics`, read from the store when scraped rather than
    /// after every send: a scrape every few seconds costs one query, a send none.
    func metricsText(now: Date) -> String {
        let age = oldestCreatedAt.map { max(0, now.timeIntervalSince($0)) } ?? 0
        return """
            # HELP tacit_sends_queued Code messages committed and waiting for a send worker.
            # TYPE tacit_sends_queued gauge
            tacit_sends_queued \(queued)
            # HELP tacit_sends_in_flight Code messages a send worker holds under a lease.
            # TYPE tacit_sends_in_flight gauge
            tacit_sends_in_flight \(leased)
            # HELP tacit_sends_oldest_age_seconds Age of the oldest code message not yet sent (0 when none).
            # TYPE tacit_sends_oldest_age_seconds gauge
            tacit_sends_oldest_age_seconds \(String(format: "%.3f", age))

            """
    }
}
