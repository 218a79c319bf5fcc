import Foundation
import TacitCrypto
import TacitProviderKit

extension VonageApplicationCredentials {
    /// nil when none of the application's settings is given. Otherwise every one it needs
    /// must be there and well formed, the key file readable and an RSA key: each problem
    /// throws naming the setting, never its value nor the key's contents.
    public init?(_ settings: ProviderSettings, publicURL: String?) throws(ProviderSetupError) {
        let names = [Self.applicationIdSetting, Self.privateKeyFileSetting, Self.whatsappFromSetting,
                     Self.voiceFromSetting, Self.whatsappTemplateSetting]
        guard names.contains(where: { settings.value($0) != nil }) else { return nil }
        guard let id = settings.value(Self.applicationIdSetting) else {
            throw .missing(Self.applicationIdSetting, for: "vonage's WhatsApp or voice")
        }
        guard (1...64).contains(id.count), id.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "-") }) else {
            throw ProviderSetupError(setting: Self.applicationIdSetting,
                                     problem: "must be a Vonage application id (a UUID)")
        }
        let key = try Self.key(settings.value(Self.privateKeyFileSetting))
        let whatsapp = try Self.number(settings, Self.whatsappFromSetting)
        let voice = try Self.number(settings, Self.voiceFromSetting)
        guard whatsapp != nil || voice != nil else {
            throw .missing(Self.whatsappFromSetting + " or " + Self.voiceFromSetting, for: "a Vonage application")
        }
        let template = settings.value(Self.whatsappTemplateSetting)
        if let template {
            guard whatsapp != nil else { throw .missing(Self.whatsappFromSetting, for: "a WhatsApp template") }
            guard template.count <= 512,
                  template.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_:-".contains($0)) }) else {
                throw ProviderSetupError(setting: Self.whatsappTemplateSetting,
                                         problem: "must be a template name "
                                             + "(letters, digits, _, - and an optional namespace:)")
            }
        }
        let apiURL = settings.value(Self.apiURLSetting) ?? "https://api.nexmo.com"
        guard let url = URL(string: apiURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ProviderSetupError(setting: Self.apiURLSetting, problem: "must be an http or https URL")
        }
        self.init(applicationId: id.lowercased(), privateKey: key, apiURL: apiURL, whatsappFrom: whatsapp,
                  voiceFrom: voice, whatsappTemplate: template, publicURL: publicURL)
    }

    static func key(_ path: String?) throws(ProviderSetupError) -> RSAPrivateKey {
        guard let path else { throw .missing(privateKeyFileSetting, for: "a Vonage application") }
        guard let data = FileManager.default.contents(atPath: path),
              let pem = String(data: data, encoding: .utf8) else {
            throw ProviderSetupError(setting: privateKeyFileSetting, problem: "cannot be read")
        }
        do {
            return try RSAPrivateKey(pem: pem)
        } catch {
            throw ProviderSetupError(setting: privateKeyFileSetting,
                                     problem: "must hold an unencrypted RSA private key of 2048 bits or more "
                                         + "in PEM (PKCS#8 or PKCS#1)")
        }
    }

    /// A sender number: digits, with or without a leading `+`.
    private static func number(_ settings: ProviderSettings, _ name: String) throws(ProviderSetupError) -> String? {
        guard let value = settings.value(name) else { return nil }
        let digits = value.hasPrefix("+") ? value.dropFirst() : Substring(value)
        guard (7...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ProviderSetupError(setting: name, problem: "must be a phone number in E.164")
        }
        return String(digits)
    }
}
