import Foundation
import TacitProviderKit

/// tru.ID's settings (docs/providers.md#truid): the project's OAuth2 client credentials and the API's
/// base URL, whose data residency (`eu`, `in`, `us`) is the project's.
public struct TruIDSettings: Sendable, Equatable {
    public static let clientIdSetting = "TACIT_TRUID_CLIENT_ID"
    public static let clientSecretSetting = "TACIT_TRUID_CLIENT_SECRET"
    public static let urlSetting = "TACIT_TRUID_URL"
    public static let defaultURL = "https://eu.api.tru.id"

    public var clientId: String
    public var clientSecret: String
    /// Without a trailing slash.
    public var url: String

    public init(clientId: String, clientSecret: String, url: String = TruIDSettings.defaultURL) {
        self.clientId = clientId
        self.clientSecret = clientSecret
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        self.url = url
    }

    /// nil when no tru.ID credential is set; throws naming the setting that is missing or malformed.
    public init?(_ settings: ProviderSettings) throws(ProviderSetupError) {
        let id = settings.value(Self.clientIdSetting), secret = settings.value(Self.clientSecretSetting)
        guard id != nil || secret != nil else { return nil }
        guard let id else { throw .missing(Self.clientIdSetting, for: TruIDProvider.name) }
        guard let secret else { throw .missing(Self.clientSecretSetting, for: TruIDProvider.name) }
        // The id goes before a `:` in HTTP Basic, so it can't hold one.
        guard !id.contains(":"), id.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ProviderSetupError(setting: Self.clientIdSetting,
                                     problem: "must be the project's client id, without spaces or colons")
        }
        let url = settings.value(Self.urlSetting) ?? Self.defaultURL
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            throw ProviderSetupError(setting: Self.urlSetting, problem: "must be an http or https URL")
        }
        self.init(clientId: id, clientSecret: secret, url: url)
    }
}
