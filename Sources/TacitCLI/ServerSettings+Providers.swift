import Foundation
import TacitServer

/// Provider settings, from `TACIT_*` variables or the config file (a variable wins):
/// `TACIT_ROUTE_<CHANNEL>[_<CC>]`, the `TACIT_PROVIDER_BREAKER_*` pair and each provider's
/// `TACIT_<PROVIDER>_*` names, kept as given. They are checked when the providers are built, before the server listens.
extension ServerSettings {
    static func applyProviders(to configuration: inout ServerConfiguration, environment: [String: String],
                               file: [String: String]) {
        let prefixes = ServeProviders.settingPrefixes
        let values = ProviderSettings.collect(from: file, providerPrefixes: prefixes)
            .merging(ProviderSettings.collect(from: environment, providerPrefixes: prefixes)) { $1 }
        configuration.providers = ProviderSettings(values)
    }

    static let providerUsage = """
        Providers (by variable or config file only; see docs/providers.md):
          TACIT_TWILIO_ACCOUNT_SID, TACIT_TWILIO_AUTH_TOKEN, TACIT_TWILIO_FROM or
          TACIT_TWILIO_MESSAGING_SERVICE_SID, TACIT_TWILIO_API_URL (default https://api.twilio.com),
          TACIT_TWILIO_WHATSAPP_CONTENT_SID (a WhatsApp authentication template);
          TACIT_VONAGE_API_KEY, TACIT_VONAGE_API_SECRET, TACIT_VONAGE_FROM (SMS),
          TACIT_VONAGE_REST_URL (default https://rest.nexmo.com);
          TACIT_VONAGE_APPLICATION_ID, TACIT_VONAGE_PRIVATE_KEY_FILE (WhatsApp, voice, and Verify v2 silent auth),
          TACIT_VONAGE_WHATSAPP_FROM,
          TACIT_VONAGE_WHATSAPP_TEMPLATE, TACIT_VONAGE_VOICE_FROM, TACIT_VONAGE_API_URL (default https://api.nexmo.com);
          TACIT_SMPP_HOST, TACIT_SMPP_PORT (default 2775), TACIT_SMPP_SYSTEM_ID, TACIT_SMPP_PASSWORD,
          TACIT_SMPP_SYSTEM_TYPE, TACIT_SMPP_SOURCE_ADDR, TACIT_SMPP_WINDOW (default 10),
          TACIT_SMPP_ENQUIRE_LINK_SECONDS (default 30), TACIT_SMPP_TIMEOUT_SECONDS (default 10);
          TACIT_TWILIO_VERIFY_SERVICE_SID, TACIT_TWILIO_VERIFY_URL (default https://verify.twilio.com: SNA);
          TACIT_TRUID_CLIENT_ID, TACIT_TRUID_CLIENT_SECRET, TACIT_TRUID_URL (default https://eu.api.tru.id);
          TACIT_CAMARA_ISSUER (OIDC discovery), TACIT_CAMARA_CLIENT_ID, TACIT_CAMARA_PRIVATE_KEY_FILE,
          TACIT_CAMARA_API_URL, TACIT_CAMARA_KEY_ID, TACIT_CAMARA_VERIFY_HASHED=1 (silent auth and SIM swap;
          the redirect URI is TACIT_PUBLIC_URL/v1/silent/callback);
          TACIT_ROUTE_SMS, TACIT_ROUTE_VOICE, TACIT_ROUTE_WHATSAPP, TACIT_ROUTE_SILENT_AUTH\
         (providers in failover order,
          e.g. twilio,vonage,smpp), TACIT_ROUTE_<CHANNEL>_<CC> for one country (TACIT_ROUTE_SMS_GB);
          TACIT_PROVIDER_BREAKER_FAILURES (transient failures in a row that open a provider's
          circuit, default 5), TACIT_PROVIDER_BREAKER_COOLDOWN_SECONDS (before a trial send, default 30).
          Status callbacks go to TACIT_PUBLIC_URL/v1/callbacks/twilio and /v1/callbacks/vonage.
        """
}
