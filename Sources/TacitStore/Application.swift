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

    public init(id: String, name: String, createdAt: Date, revokedAt: Date? = nil,
                settings: ApplicationSettings = ApplicationSettings()) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.settings = settings
    }

    public var isRevoked: Bool { revokedAt != nil }
}

/// An application's own settings: defaults for its starts. Every field is optional; an
/// absent one falls back to the server's. What a drop-in face keeps for the application
/// (its credentials, its callback target) are the face's own records, `FaceCredential`.
public struct ApplicationSettings: Sendable, Equatable {
    public var brand: String?
    public var codeLength: Int?
    public var channelTimeout: Int?
    /// The Android SMS Retriever hash its SMS end with (docs/locales.md#autofill).
    public var smsAppHash: String?
    /// The domain of its origin-bound line, `@example.com #123456`, last in its SMS.
    public var smsOrigin: String?
    /// Its fraud protection level (docs/fraud.md#protection-levels); `basic` unless set.
    public var fraudLevel: FraudLevel

    public init(brand: String? = nil, codeLength: Int? = nil, channelTimeout: Int? = nil,
                smsAppHash: String? = nil, smsOrigin: String? = nil, fraudLevel: FraudLevel = .basic) {
        self.brand = brand
        self.codeLength = codeLength
        self.channelTimeout = channelTimeout
        self.smsAppHash = smsAppHash
        self.smsOrigin = smsOrigin
        self.fraudLevel = fraudLevel
    }
}
