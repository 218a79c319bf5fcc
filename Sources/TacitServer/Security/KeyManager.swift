import Foundation
import TacitCrypto
import TacitStore

/// Creates, lists and revokes API keys in a store (what `tacit keys` runs). A key is
/// shown once, when created; the store keeps only its keyed hash.
public struct KeyManager: Sendable {
    /// A refused request, with a stable code; never carries a key.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var code: String
        public var description: String
    }

    let store: any KeyStore

    /// Migrates `store`. API keys hash the same with any key ring (see `APIKeyHash`), so
    /// no master key is needed here.
    public static func open(store: any VerificationStore & KeyStore) async throws -> KeyManager {
        try await store.migrate()
        return KeyManager(store: store)
    }

    /// Makes a key named `name` with `scopes` (defaults when empty) for `application`;
    /// returns it and its secret `tk_…`. A revoked or unknown application gets no key.
    public func create(name: String, scopes: [String] = [], application: String = Application.defaultID,
                       at now: Date = Date()) async throws -> (key: APIKey, secret: String) {
        let trimmed = try Self.checkedName(name)
        if let applications = store as? any ApplicationStore {
            guard let owner = try await applications.application(id: application), !owner.isRevoked else {
                throw Failure(code: "unknown_application",
                              description: "no application that is not revoked has the id \(application)")
            }
        }
        let granted = scopes.isEmpty ? Scope.defaults : scopes
        if let unknown = granted.first(where: { !Scope.all.contains($0) }) {
            throw Failure(code: "invalid_scope",
                          description: "unknown scope \(unknown); known: \(Scope.all.sorted().joined(separator: ", "))")
        }
        let secret = Token.generate(prefix: "tk_")
        let key = APIKey(id: "key_" + Hex.encode(SecureRandom.bytes(8)), name: trimmed,
                         scopes: Array(Set(granted)).sorted(), createdAt: now, applicationId: application)
        try await store.insertKey(key, hash: APIKeyHash.of(secret))
        return (key, secret)
    }

    public func list() async throws -> [APIKey] { try await store.keys() }

    /// `name` trimmed, or the failure for one that is empty, too long or on several lines.
    static func checkedName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(trimmed.count), !trimmed.contains(where: \.isNewline) else {
            throw Failure(code: "invalid_name", description: "the name must be 1 to 64 characters on one line")
        }
        return trimmed
    }

    /// false when no key has this id.
    public func revoke(id: String, at now: Date = Date()) async throws -> Bool {
        try await store.revokeKey(id: id, at: now)
    }
}
