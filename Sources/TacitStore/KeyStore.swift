import Foundation

/// An API key as the store keeps it: everything but the key itself, which exists
/// only as a keyed hash (the caller hashes; the store never sees the key).
public struct APIKey: Sendable, Equatable {
    public var id: String
    public var name: String
    /// Named permissions, e.g. `verifications:write`.
    public var scopes: [String]
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?
    /// The application the key acts for.
    public var applicationId: String

    public init(id: String, name: String, scopes: [String], createdAt: Date, lastUsedAt: Date? = nil,
                revokedAt: Date? = nil, applicationId: String = Application.defaultID) {
        self.applicationId = applicationId
        self.id = id
        self.name = name
        self.scopes = scopes
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }

    public var isRevoked: Bool { revokedAt != nil }
}

/// Where API keys live. Lookups go by the key's keyed hash through a unique index,
/// so no comparison ever runs over the secret itself and timing reveals nothing.
public protocol KeyStore: Sendable {
    /// Adds a key with the keyed hash of its secret.
    func insertKey(_ key: APIKey, hash: [UInt8]) async throws
    /// The key whose secret hashes to `hash`, revoked or not; nil when none does.
    func key(hash: [UInt8]) async throws -> APIKey?
    /// Every key, oldest first.
    func keys() async throws -> [APIKey]
    /// Marks a key revoked; false when no key has this id. Revoking twice keeps the first time.
    func revokeKey(id: String, at: Date) async throws -> Bool
    /// Records that the key was used (callers throttle this, it is a write).
    func touchKey(id: String, at: Date) async throws
}
