import Foundation
import TacitCore
import TacitProvidersSMPP
import TacitProvidersTwilio
import TacitProvidersVonage
import TacitServer

/// The one place that names the real messaging providers: builds each configured one in
/// the table's order (SPEC §8) and the router over them. A setting it can't start with
/// is a `ProviderSetupError`, which `serve` prints as one line before exiting 2.
enum ServeProviders {
    /// The router over every configured provider; an SMPP session, which reads its own
    /// receipts, joins `receiptSources`.
    static func sender(_ configuration: ServerConfiguration, http: any OutboundHTTPClient,
                       receiptSources: inout [any ProviderReceiptSource]) throws(ProviderSetupError) -> any MessageSender {
        let settings = configuration.providers
        let smpp = try SMPPProvider.routed(settings)
        let providers = [
            try TwilioProvider.routed(settings, publicURL: configuration.publicURL, http: http),
            try VonageProvider.routed(settings, publicURL: configuration.publicURL, http: http),
            smpp?.provider,
        ].compactMap { $0 }
        if let session = smpp?.session { receiptSources.append(session) }
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
