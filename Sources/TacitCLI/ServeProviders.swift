import Foundation
import TacitCore
import TacitProvidersSMPP
import TacitProvidersSMTP
import TacitProvidersTruID
import TacitProvidersTwilio
import TacitProvidersVonage
import TacitServer

/// The one place that names the real messaging providers: builds each configured one in
/// the documented order (docs/providers.md#routing-and-failover), and the router over them. A setting it can't use
/// is a `ProviderSetupError`, which `serve` prints as one line before exiting 2.
enum ServeProviders {
    /// The `TACIT_<PROVIDER>_*` variables kept as provider settings, besides the routes and breaker.
    static let settingPrefixes = ["TACIT_TWILIO_", "TACIT_VONAGE_", "TACIT_SMPP_", "TACIT_SMTP_", "TACIT_TRUID_",
                                  "TACIT_CAMARA_"]

    /// The providers' signed status callbacks, each at its own path; each answers 404
    /// until its secret is set.
    static func callbacks(_ configuration: ServerConfiguration) throws(ProviderSetupError) -> [any ProviderCallback] {
        [try VonageCallbackRoute(configuration.providers), TwilioCallbackRoute(configuration.providers)]
    }

    /// The router over every configured provider; an SMPP session, which reads its own
    /// receipts, joins `receiptSources`.
    static func sender(_ configuration: ServerConfiguration, http: any OutboundHTTPClient,
                       receiptSources: inout [any ProviderReceiptSource])
        throws(ProviderSetupError) -> any MessageSender {
        let settings = configuration.providers
        let smpp = try SMPPProvider.routed(settings)
        let providers = [
            try TwilioProvider.routed(settings, publicURL: configuration.publicURL, http: http),
            try VonageProvider.routed(settings, publicURL: configuration.publicURL, http: http),
            smpp?.provider,
            try SMTPProvider.routed(settings),
        ].compactMap { $0 }
        if let session = smpp?.session { receiptSources.append(session) }
        return try ProviderRouter(providers: providers, routes: try settings.routes(),
                                  breaker: try ProviderBreakerSettings(settings))
    }

    /// The router over every configured silent-auth provider in the table's order (twilio,
    /// vonage, truid, camara); nil when none is configured, which leaves the silent step to
    /// the virtual operator in dev and to no one otherwise.
    static func silent(_ configuration: ServerConfiguration, http: any OutboundHTTPClient,
                       camara: RoutedSilentProvider?) throws(ProviderSetupError) -> SilentProviderRouter? {
        let settings = configuration.providers
        let providers = [
            try TwilioProvider.silent(settings, http: http),
            try VonageProvider.silent(settings, http: http),
            try TruIDProvider.routed(settings, http: http),
            camara,
        ].compactMap { $0 }
        let routes = try settings.routes()
        let named = routes.all.contains { $0.channel == .silentAuth }
        guard !providers.isEmpty || named else { return nil }
        return try SilentProviderRouter(providers: providers, routes: routes,
                                        breaker: try ProviderBreakerSettings(settings))
    }

    /// Puts `router` in front of the silent port, with whatever answered for the virtual
    /// range before it (the virtual operator in dev), and its providers' verdict checks.
    static func wire(_ router: SilentProviderRouter?, into dependencies: inout TacitApplication.Dependencies) {
        guard let router else { return }
        dependencies.silentAuth = router.routing(virtualRange: dependencies.silentAuth)
        for provider in router.providers {
            if let check = provider.check { dependencies.silentProviderChecks[provider.name] = check }
        }
    }

    /// Warnings that don't stop the server: a provider that can't send receipts anywhere.
    static func warnings(_ configuration: ServerConfiguration) -> [String] {
        guard configuration.publicURL == nil else { return [] }
        var warnings: [String] = []
        if configuration.providers.value(TwilioSettings.accountSidSetting) != nil {
            warnings.append("tacit: TACIT_PUBLIC_URL is not set, so Twilio is given no status callback"
                            + " and sends no delivery receipts")
        }
        if configuration.providers.value(VonageSettings.apiKeySetting) != nil
            || configuration.providers.value(VonageApplicationCredentials.applicationIdSetting) != nil {
            warnings.append("tacit: TACIT_PUBLIC_URL is not set, so Vonage is given no callback URL"
                            + " and its receipts go to the dashboard's")
        }
        return warnings
    }
}
