import Foundation
import TacitCore
import TacitProviderKit

/// Twilio as one routed provider: the composition root (the `tacit` executable) asks it
/// for its place in the router, built from the provider settings.
public enum TwilioProvider {
    /// The name routes use (`TACIT_ROUTE_SMS=twilio`) and the timeline shows.
    public static let name = "twilio"

    /// nil when no Twilio setting is given; throws naming the setting when one is missing.
    public static func routed(_ settings: ProviderSettings, publicURL: String?,
                              http: any OutboundHTTPClient) throws(ProviderSetupError) -> RoutedProvider? {
        guard let twilio = try TwilioSettings(settings, publicURL: publicURL) else { return nil }
        return RoutedProvider(name: name, channels: twilio.channels, sender: TwilioSender(settings: twilio, http: http))
    }
}

extension TwilioProvider {
    /// Verify SNA as a routed silent provider; nil without `TACIT_TWILIO_VERIFY_SERVICE_SID`.
    public static func silent(
        _ settings: ProviderSettings, http: any OutboundHTTPClient
    ) throws(ProviderSetupError) -> RoutedSilentProvider? {
        guard let verify = try TwilioVerifySettings(settings) else { return nil }
        let sna = TwilioSNA(settings: verify, http: http)
        return RoutedSilentProvider(name: name, provider: sna, check: sna)
    }
}
