import Foundation
import TacitCore
import TacitProviderKit

/// tru.ID as one routed silent provider (SubscriberCheck v0.2): the composition root asks
/// it for its place in the silent router, built from the provider settings.
public enum TruIDProvider {
    /// The name routes use (`TACIT_ROUTE_SILENT_AUTH=truid`) and the timeline shows.
    public static let name = "truid"

    /// nil when no tru.ID setting is given; throws naming the setting when one is missing.
    public static func routed(
        _ settings: ProviderSettings, http: any OutboundHTTPClient, clock: any TacitClock = SystemClock()
    ) throws(ProviderSetupError) -> RoutedSilentProvider? {
        guard let truid = try TruIDSettings(settings) else { return nil }
        let checks = TruIDSubscriberCheck(settings: truid, http: http,
                                          tokens: TruIDTokens(settings: truid, http: http, clock: clock))
        return RoutedSilentProvider(name: name, provider: checks, check: checks)
    }
}
