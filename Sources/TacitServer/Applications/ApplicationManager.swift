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
    /// The faces whose credentials and settings an application gets.
    let faces: [any CompatibleFace]

    /// Migrates `store`.
    public static func open(store: any VerificationStore & KeyStore & ApplicationStore,
                            faces: [any CompatibleFace]) async throws -> ApplicationManager {
        try await store.migrate()
        return ApplicationManager(store: store, faces: faces)
    }

    /// Makes an application named `name`, its first API key and every face's credentials,
    /// with the faces' settings `change` gives (only settings kept in clear: nothing is
    /// sealed before the application exists).
    public func create(name: String, _ change: ApplicationChange = ApplicationChange(), at now: Date = Date())
        async throws -> (application: Application, credentials: IssuedCredentials) {
        let trimmed = try KeyManager.checkedName(name)
        let settings = try change.faceRecords(faces) { _ in
            throw Failure(code: "invalid_setting", description: "a secret can be set only once the application exists")
        }
        let application = Application(id: "app_" + Hex.encode(SecureRandom.bytes(8)), name: trimmed, createdAt: now)
        var issued = IssuedCredentials.generate(apiKey: "", faces: faces)
        // A face's short public id (8 hex digits, say) may, rarely, be taken already: draw again.
        var attempts = 0
        while true {
            do {
                try await store.insertApplication(application, credentials: issued.stored + settings)
                break
            } catch let error as StoreError where error.code == "duplicate_application" && attempts < 3 {
                attempts += 1
                issued = IssuedCredentials.generate(apiKey: "", faces: faces)
            }
        }
        let (_, secret) = try await KeyManager(store: store).create(name: trimmed, application: application.id, at: now)
        issued.apiKey = secret
        return (application, issued)
    }

    public func list() async throws -> [Application] { try await store.applications() }

    /// Revokes the application and every key of it at once; false when no application has this id.
    public func revoke(id: String, at now: Date = Date()) async throws -> Bool {
        try await store.revokeApplication(id: id, at: now)
    }

    /// Applies `change`: the application's own settings, then the faces' records it names;
    /// `seal` seals a secret setting (the server's field protection). nil when no
    /// application has this id.
    public func set(id: String, _ change: ApplicationChange,
                    seal: (([UInt8]) throws -> [UInt8])? = nil) async throws -> Application? {
        guard var application = try await store.application(id: id) else { return nil }
        application.settings = try change.applied(to: application.settings)
        let records = try change.faceRecords(faces) { secret in
            guard let seal else {
                throw Failure(code: "no_key_ring", description: "sealing needs the server's master key")
            }
            return try seal(secret)
        }
        guard try await store.updateApplication(id: id, settings: application.settings) else { return nil }
        if !records.isEmpty, try await !store.setFaceCredentials(records, application: id) { return nil }
        return application
    }

    /// The records `face` keeps for the application, its secrets left as stored.
    public func faceRecords(of id: String, face: String) async throws -> [FaceCredential] {
        try await store.faceCredentials(application: id, face: face)
    }
}
