import Foundation
import TacitCore
import TacitServer

/// Vonage as one routed provider: the composition root (the `tacit` executable) asks it
/// for its place in the router, built from the provider settings.
public enum VonageProvider {
    /// The name routes use (`TACIT_ROUTE_SMS=twilio,vonage`) and the timeline shows.
    public static let name = "vonage"

    /// nil when no Vonage sending setting is given; throws naming the setting when one is missing.
    public static func routed(_ settings: ProviderSettings, publicURL: String?,
                              http: any OutboundHTTPClient) throws(ProviderSetupError) -> RoutedProvider? {
        guard let vonage = try VonageSettings(settings, publicURL: publicURL) else { return nil }
        return RoutedProvider(name: name, channels: vonage.channels, sender: VonageSender(settings: vonage, http: http))
    }
}
