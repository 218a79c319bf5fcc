import Foundation

/// A tenant of one Tacit (docs/api.md#applications-and-keys): it owns its credentials, its verifications, its
/// idempotency records and its settings, and sees nothing of another application.
public struct Application: Sendable, Equatable {
    public var id: String
    public var name: String
    public var createdAt: Date
    public var revokedAt: Date?
    public var settings: ApplicationSettings

    /// The application keys made before applications existed belong to (made by the migration).
    public static let defaultID = "default"
    /// The application keyless loopback calls act for in `--dev`.
    public static let devID = "dev"

    public init(id: String, name: String, createdAt: Date, revokedAt: Date? = nil, settings: ApplicationSettings = ApplicationSettings()) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.settings = settings
    }

    public var isRevoked: Bool { revokedAt != nil }
}

/// An application's own settings: defaults for its starts, and what the drop-in faces
/// need to speak for it. Every field is optional; an absent one falls back to the server's.
public struct ApplicationSettings: Sendable, Equatable {
    public var brand: String?
    public var codeLength: Int?
    public var channelTimeout: Int?
    /// Where the Vonage face sends this application's `event` and `summary` callbacks.
    public var vonageCallbackURL: String?
    /// The secret that signs those callbacks, sealed with the server's field protection.
    public var vonageSignatureSecretSealed: [UInt8]?
    /// The RSA public key (PEM) whose private key signs this application's Vonage JWTs.
    public var vonagePublicKeyPEM: String?

    public init(brand: String? = nil, codeLength: Int? = nil, channelTimeout: Int? = nil, vonageCallbackURL: String? = nil,
                vonageSignatureSecretSealed: [UInt8]? = nil, vonagePublicKeyPEM: String? = nil) {
        self.brand = brand
        self.codeLength = codeLength
        self.channelTimeout = channelTimeout
        self.vonageCallbackURL = vonageCallbackURL
        self.vonageSignatureSecretSealed = vonageSignatureSecretSealed
        self.vonagePublicKeyPEM = vonagePublicKeyPEM
    }
}

/// The Vonage- and Twilio-style credentials of an application as stored: the public
/// identifiers in clear (they are looked up by), the secrets only as strong hashes.
public struct ApplicationCredentials: Sendable, Equatable {
    /// Vonage `application_id`, a UUID (the JWT's `application_id` claim).
    public var vonageApplicationId: String
    /// Vonage `api_key` (the Basic user name).
    public var vonageAPIKey: String
    public var vonageAPISecretHash: [UInt8]
    /// Twilio `account_sid`, `AC` and 32 hex digits (the Basic user name).
    public var twilioAccountSid: String
    public var twilioAuthTokenHash: [UInt8]
    /// Twilio Verify `service_sid`, `VA` and 32 hex digits (in the face's paths).
    public var twilioServiceSid: String

    public init(vonageApplicationId: String, vonageAPIKey: String, vonageAPISecretHash: [UInt8],
                twilioAccountSid: String, twilioAuthTokenHash: [UInt8], twilioServiceSid: String) {
        self.vonageApplicationId = vonageApplicationId
        self.vonageAPIKey = vonageAPIKey
        self.vonageAPISecretHash = vonageAPISecretHash
        self.twilioAccountSid = twilioAccountSid
        self.twilioAuthTokenHash = twilioAuthTokenHash
        self.twilioServiceSid = twilioServiceSid
    }
}
