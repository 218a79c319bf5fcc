import Foundation
import TacitCrypto
import TacitProviderKit

/// What Verify v2's silent auth needs (docs/providers.md#vonage-verify-v2-silent-authentication): the application whose
/// RS256 JWT signs every call, and the API's base URL. Verify takes no sender, so an
/// application id and its key are the whole configuration; the signature secret that
/// verifies Verify's event callbacks is the callbacks' setting, shared with messaging.
public struct VonageVerifySettings: Sendable {
    public var applicationId: String
    public var privateKey: RSAPrivateKey
    /// Without a trailing slash; `https://api.nexmo.com` unless set.
    public var apiURL: String

    public init(applicationId: String, privateKey: RSAPrivateKey, apiURL: String = "https://api.nexmo.com") {
        self.applicationId = applicationId
        self.privateKey = privateKey
        self.apiURL = VonageApplicationCredentials.trimmed(apiURL)
    }

    /// nil without `TACIT_VONAGE_APPLICATION_ID`; with it, the key file must be readable
    /// and an RSA key, and the API URL well formed: each problem throws naming the setting.
    public init?(_ settings: ProviderSettings) throws(ProviderSetupError) {
        let idSetting = VonageApplicationCredentials.applicationIdSetting
        guard let id = settings.value(idSetting) else { return nil }
        guard (1...64).contains(id.count), id.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "-") }) else {
            throw ProviderSetupError(setting: idSetting, problem: "must be a Vonage application id (a UUID)")
        }
        let key = try VonageApplicationCredentials.key(
            settings.value(VonageApplicationCredentials.privateKeyFileSetting))
        let apiSetting = VonageApplicationCredentials.apiURLSetting
        let apiURL = settings.value(apiSetting) ?? "https://api.nexmo.com"
        guard let url = URL(string: apiURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ProviderSetupError(setting: apiSetting, problem: "must be an http or https URL")
        }
        self.init(applicationId: id.lowercased(), privateKey: key, apiURL: apiURL)
    }

    /// `Authorization: Bearer <token>`, a fresh token per call as for messaging.
    func authorization(now: Date) throws(CryptoError) -> String {
        "Bearer " + (try JWT.sign(claims: VonageApplicationToken.claims(applicationId: applicationId, now: now),
                                  privateKey: privateKey))
    }
}
