import Foundation
import TacitCrypto
import TacitStore

/// Creates, lists, changes and revokes applications in a store (what `tacit apps` runs).
/// Credentials are shown once, when created; the store keeps only hashes of the secrets.
public struct ApplicationManager: Sendable {
    /// A refused request, with a stable code; never carries a secret.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var code: String
        public var description: String
    }

    let store: any VerificationStore & KeyStore & ApplicationStore

    /// Migrates `store`.
    public static func open(store: any VerificationStore & KeyStore & ApplicationStore) async throws -> ApplicationManager {
        try await store.migrate()
        return ApplicationManager(store: store)
    }

    /// Makes an application named `name`, its first API key and its drop-in credentials.
    public func create(name: String, vonagePublicKeyPEM: String? = nil, at now: Date = Date())
        async throws -> (application: Application, credentials: IssuedCredentials) {
        let trimmed = try KeyManager.checkedName(name)
        if let vonagePublicKeyPEM { try Self.checkPublicKey(vonagePublicKeyPEM) }
        let application = Application(id: "app_" + Hex.encode(SecureRandom.bytes(8)), name: trimmed, createdAt: now,
                                      settings: ApplicationSettings(vonagePublicKeyPEM: vonagePublicKeyPEM))
        var issued = IssuedCredentials.generate(apiKey: "")
        // An 8-hex-digit Vonage api_key may, rarely, be taken already: draw again.
        var attempts = 0
        while true {
            do {
                try await store.insertApplication(application, credentials: issued.stored)
                break
            } catch let error as StoreError where error.code == "duplicate_application" && attempts < 3 {
                attempts += 1
                issued = IssuedCredentials.generate(apiKey: "")
            }
        }
        let (_, secret) = try await KeyManager(store: store).create(name: trimmed, application: application.id, at: now)
        issued.apiKey = secret
        return (application, issued)
    }

    public func list() async throws -> [Application] { try await store.applications() }

    /// Revokes the application and every key of it at once; false when no application has this id.
    public func revoke(id: String, at now: Date = Date()) async throws -> Bool { try await store.revokeApplication(id: id, at: now) }

    /// Applies `change`; `seal` seals the signature secret (the server's field protection).
    /// nil when no application has this id.
    public func set(id: String, _ change: ApplicationChange, seal: (([UInt8]) throws -> [UInt8])? = nil) async throws -> Application? {
        guard var application = try await store.application(id: id) else { return nil }
        application.settings = try change.applied(to: application.settings) { secret in
            guard let seal else { throw Failure(code: "no_key_ring", description: "sealing needs the server's master key") }
            return try seal(secret)
        }
        guard try await store.updateApplication(id: id, settings: application.settings) else { return nil }
        return application
    }

    /// Refuses text that is not one PEM `PUBLIC KEY` block with a base64 body.
    static func checkPublicKey(_ pem: String) throws {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard lines.count >= 3, lines.first == "-----BEGIN PUBLIC KEY-----", lines.last == "-----END PUBLIC KEY-----",
              Data(base64Encoded: lines.dropFirst().dropLast().joined()) != nil else {
            throw Failure(code: "invalid_public_key", description: "the Vonage public key must be a PEM PUBLIC KEY block")
        }
    }
}
