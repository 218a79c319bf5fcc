import Foundation
import TacitCore
import TacitProvidersTwilio
import TacitProvidersVonage
import TacitServer

/// The one place that names the real messaging providers: builds each configured one in
/// the table's order (SPEC §8) and the router over them. A setting it can't start with
/// is a `ProviderSetupError`, which `serve` prints as one line before exiting 2.
enum ServeProviders {
    static func sender(_ configuration: ServerConfiguration, http: any OutboundHTTPClient) throws(ProviderSetupError) -> any MessageSender {
        let settings = configuration.providers
        let providers = [
            try TwilioProvider.routed(settings, publicURL: configuration.publicURL, http: http),
            try VonageProvider.routed(settings, publicURL: configuration.publicURL, http: http),
        ].compactMap { $0 }
        return try ProviderRouter(providers: providers, routes: try settings.routes(), breaker: try ProviderBreakerSettings(settings))
    }

    /// Warnings that don't stop the server: a provider that can't send receipts anywhere.
    static func warnings(_ configuration: ServerConfiguration) -> [String] {
        guard configuration.publicURL == nil else { return [] }
        var warnings: [String] = []
        if configuration.providers.value(TwilioSettings.accountSidSetting) != nil {
            warnings.append("tacit: TACIT_PUBLIC_URL is not set, so Twilio is given no status callback and sends no delivery receipts")
        }
        if configuration.providers.value(VonageSettings.apiKeySetting) != nil
            || configuration.providers.value(VonageApplicationCredentials.applicationIdSetting) != nil {
            warnings.append("tacit: TACIT_PUBLIC_URL is not set, so Vonage is given no callback URL and its receipts go to the dashboard's")
        }
        return warnings
    }
}
