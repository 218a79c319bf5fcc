import Foundation
import TacitCrypto
import TacitProviderKit

extension CamaraSettings {
    /// nil when no CAMARA setting is given. Otherwise each one is required and checked: the
    /// URLs http(s), the key file readable and a private key. Each problem throws naming
    /// the setting, never its value nor the key's contents.
    public init?(_ settings: ProviderSettings, publicURL: String?) throws(ProviderSetupError) {
        let names = [Self.issuerSetting, Self.clientIdSetting, Self.privateKeyFileSetting, Self.apiURLSetting,
                     Self.keyIdSetting]
        guard names.contains(where: { settings.value($0) != nil }) else { return nil }
        let issuer = try Self.url(settings, Self.issuerSetting)
        guard let clientId = settings.value(Self.clientIdSetting) else {
            throw .missing(Self.clientIdSetting, for: "camara")
        }
        guard clientId.count <= 256, clientId.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ProviderSetupError(setting: Self.clientIdSetting,
                                     problem: "must be the client id the operator registered (printable ASCII)")
        }
        let key = try Self.key(settings.value(Self.privateKeyFileSetting))
        let apiURL = try Self.url(settings, Self.apiURLSetting)
        guard let publicURL, !publicURL.isEmpty else {
            throw ProviderSetupError(setting: "TACIT_PUBLIC_URL",
                                     problem: "must be set to use camara: it is the redirect URI registered "
                                         + "with the operator")
        }
        let hashed = settings.value(Self.hashedSetting)
        guard hashed == nil || hashed == "0" || hashed == "1" else {
            throw ProviderSetupError(setting: Self.hashedSetting, problem: "must be 0 or 1")
        }
        self.init(issuer: issuer, clientId: clientId, signingKey: key, apiURL: apiURL, publicURL: publicURL,
                  keyId: settings.value(Self.keyIdSetting), verifyHashed: hashed == "1")
    }

    private static func url(_ settings: ProviderSettings, _ name: String) throws(ProviderSetupError) -> String {
        guard let value = settings.value(name) else { throw .missing(name, for: "camara") }
        guard let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
              url.query == nil else {
            throw ProviderSetupError(setting: name, problem: "must be an http or https URL without a query")
        }
        return value
    }

    private static func key(_ path: String?) throws(ProviderSetupError) -> CamaraSigningKey {
        guard let path else { throw .missing(privateKeyFileSetting, for: "camara") }
        guard let data = FileManager.default.contents(atPath: path),
              let pem = String(data: data, encoding: .utf8) else {
            throw ProviderSetupError(setting: privateKeyFileSetting, problem: "cannot be read")
        }
        do {
            return try CamaraSigningKey(pem: pem)
        } catch {
            throw ProviderSetupError(setting: privateKeyFileSetting,
                                     problem: "must hold an unencrypted private key in PEM: RSA of 2048 bits or more, "
                                         + "or EC on P-256")
        }
    }
}
