import Foundation
import TacitCore
import TacitProviderKit

/// Vonage's SMS API settings (docs/providers.md#vonage): the API key and secret for HTTP Basic, the sender
/// (`TACIT_VONAGE_FROM`, a number or an alphanumeric sender ID), the SMS API's base URL,
/// and the public URL delivery receipts come back to.
public struct VonageSettings: Sendable, Equatable {
    public static let apiKeySetting = "TACIT_VONAGE_API_KEY"
    public static let apiSecretSetting = "TACIT_VONAGE_API_SECRET"
    public static let fromSetting = "TACIT_VONAGE_FROM"
    public static let restURLSetting = "TACIT_VONAGE_REST_URL"

    public var apiKey: String
    public var apiSecret: String
    /// Digits of a number without `+`, or an alphanumeric sender ID of up to 11 characters.
    public var from: String
    /// Without a trailing slash; `https://rest.nexmo.com` unless set.
    public var restURL: String
    /// `TACIT_PUBLIC_URL`: where `callback` points. Without it no receipt URL is given.
    public var publicURL: String?

    public init(apiKey: String, apiSecret: String, from: String, restURL: String = "https://rest.nexmo.com",
                publicURL: String? = nil) {
        self.apiKey = apiKey
        self.apiSecret = apiSecret
        self.from = from
        self.restURL = Self.trimmed(restURL)
        self.publicURL = publicURL.map(Self.trimmed)
    }

    /// nil when Vonage is not configured for sending: none of the API key, the API secret
    /// and `FROM` is set. The signature secret alone is not a configuration, since it only
    /// verifies callbacks.
    public init?(_ settings: ProviderSettings, publicURL: String?) throws(ProviderSetupError) {
        let key = settings.value(Self.apiKeySetting)
        let secret = settings.value(Self.apiSecretSetting)
        let from = settings.value(Self.fromSetting)
        guard key != nil || secret != nil || from != nil else { return nil }
        guard let key else { throw .missing(Self.apiKeySetting, for: "vonage") }
        guard key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ProviderSetupError(setting: Self.apiKeySetting, problem: "must be an API key (letters and digits)")
        }
        guard let secret else { throw .missing(Self.apiSecretSetting, for: "vonage") }
        guard let from else { throw .missing(Self.fromSetting, for: "vonage") }
        let restURL = settings.value(Self.restURLSetting) ?? "https://rest.nexmo.com"
        guard let url = URL(string: restURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ProviderSetupError(setting: Self.restURLSetting, problem: "must be an http or https URL")
        }
        // The SMS API takes a number without its `+`; keep the setting as people write it.
        let sender = from.hasPrefix("+") ? String(from.dropFirst()) : from
        self.init(apiKey: key, apiSecret: secret, from: sender, restURL: restURL, publicURL: publicURL)
    }

    /// SMS only: WhatsApp (Messages API) and voice (Voice API) need application JWTs.
    public var channels: Set<Channel> { [.sms] }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
