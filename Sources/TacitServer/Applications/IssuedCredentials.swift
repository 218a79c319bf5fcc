import Foundation
import TacitCore
import TacitCrypto
import TacitStore

/// An application's credentials as made, secrets included: shown once, by `tacit apps
/// create`, then kept only as `ApplicationCredentials` (public ids and hashes).
public struct IssuedCredentials: Sendable, Equatable {
    /// The Tacit API key `tk_…` for `/v1`.
    public var apiKey: String
    public var vonageApplicationId: String
    public var vonageAPIKey: String
    public var vonageAPISecret: String
    public var twilioAccountSid: String
    public var twilioAuthToken: String
    public var twilioServiceSid: String

    /// Fresh drop-in credentials, in the shapes each provider's SDKs expect: a UUID and
    /// Vonage's 8 hex digits and 16 letters and digits; Twilio's `AC`, `VA` and 32 hex digits.
    static func generate(apiKey: String) -> IssuedCredentials {
        IssuedCredentials(apiKey: apiKey, vonageApplicationId: uuid(), vonageAPIKey: Hex.encode(SecureRandom.bytes(4)),
                          vonageAPISecret: alphanumeric(16), twilioAccountSid: "AC" + Hex.encode(SecureRandom.bytes(16)),
                          twilioAuthToken: Hex.encode(SecureRandom.bytes(16)), twilioServiceSid: "VA" + Hex.encode(SecureRandom.bytes(16)))
    }

    /// The one object `tacit apps create --json` prints (docs/api.md#applications-and-keys).
    public func json(for application: Application) -> String {
        let members: [String: JSONValue] = [
            "id": .string(application.id), "name": .string(application.name), "api_key": .string(apiKey),
            "vonage": .object(["application_id": .string(vonageApplicationId), "api_key": .string(vonageAPIKey),
                               "api_secret": .string(vonageAPISecret)]),
            "twilio": .object(["account_sid": .string(twilioAccountSid), "auth_token": .string(twilioAuthToken),
                               "service_sid": .string(twilioServiceSid)]),
        ]
        return String(decoding: JSONText.object(members), as: UTF8.self)
    }

    /// What the store keeps of them.
    var stored: ApplicationCredentials {
        ApplicationCredentials(vonageApplicationId: vonageApplicationId, vonageAPIKey: vonageAPIKey,
                               vonageAPISecretHash: CredentialHash.of(vonageAPISecret, purpose: CredentialHash.vonageSecret),
                               twilioAccountSid: twilioAccountSid,
                               twilioAuthTokenHash: CredentialHash.of(twilioAuthToken, purpose: CredentialHash.twilioToken),
                               twilioServiceSid: twilioServiceSid)
    }

    /// A version 4 UUID, lower case.
    static func uuid() -> String {
        var bytes = SecureRandom.bytes(16)
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = Array(Hex.encode(bytes))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    /// `count` characters from A–Z, a–z and 0–9, each uniform (bytes past the last whole
    /// multiple of 62 are drawn again).
    static func alphanumeric(_ count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var result = ""
        while result.count < count {
            for byte in SecureRandom.bytes(count) where byte < 248 && result.count < count {
                result.append(alphabet[Int(byte) % 62])
            }
        }
        return result
    }
}
