import Foundation
import TacitProviderKit

/// In `--dev` the inbox sits in front of the provider router, so the router's lines for
/// `/metrics` (its circuits) are passed on rather than lost behind the wrapper.
extension RoutingSender: MetricsSection {
    public func renderMetrics() -> String {
        (fallback as? any MetricsSection)?.renderMetrics() ?? ""
    }
}
