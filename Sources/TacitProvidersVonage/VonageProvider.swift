import Foundation
import TacitCore
import TacitProviderKit

/// Vonage as one routed provider: the composition root (the `tacit` executable) asks it
/// for its place in the router, built from the provider settings.
public enum VonageProvider {
    /// The name routes use (`TACIT_ROUTE_SMS=twilio,vonage`) and the timeline shows.
    public static let name = "vonage"
    /// The currency the SMS API's `message-price` and receipts' `price` are in: they name
    /// none, and Vonage bills in euros (docs/api.md#insights).
    static let priceCurrency = "EUR"

    /// nil when neither the SMS API's settings nor a Vonage application's is given; throws
    /// naming the setting when one is missing or wrong. It carries SMS with the first,
    /// WhatsApp and voice with the second, as their senders are set.
    public static func routed(_ settings: ProviderSettings, publicURL: String?,
                              http: any OutboundHTTPClient) throws(ProviderSetupError) -> RoutedProvider? {
        let sms = try VonageSettings(settings, publicURL: publicURL)
        // An application with no sender of its own is there for Verify's silent checks alone.
        let senders = [VonageApplicationCredentials.whatsappFromSetting, VonageApplicationCredentials.voiceFromSetting,
                       VonageApplicationCredentials.whatsappTemplateSetting]
        let sends = senders.contains { settings.value($0) != nil }
            || settings.value(VonageApplicationCredentials.applicationIdSetting) == nil
        let application = sends ? try VonageApplicationCredentials(settings, publicURL: publicURL) : nil
        guard sms != nil || application != nil else { return nil }
        let channels = (sms?.channels ?? []).union(application?.channels ?? [])
        return RoutedProvider(name: name, channels: channels,
                              sender: VonageSender(settings: sms, application: application, http: http))
    }
}

extension VonageProvider {
    /// Verify v2's silent authentication as a routed silent provider; nil without
    /// `TACIT_VONAGE_APPLICATION_ID`.
    public static func silent(
        _ settings: ProviderSettings, http: any OutboundHTTPClient, clock: any TacitClock = SystemClock()
    ) throws(ProviderSetupError) -> RoutedSilentProvider? {
        guard let verify = try VonageVerifySettings(settings) else { return nil }
        let checks = VonageSilentAuth(settings: verify, http: http, clock: clock)
        return RoutedSilentProvider(name: name, provider: checks, check: checks)
    }
}
