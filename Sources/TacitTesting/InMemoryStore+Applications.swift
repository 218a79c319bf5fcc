import Foundation
import TacitStore

/// Applications held in memory beside the API keys, under the same lock, so revoking an
/// application revokes its keys at once, as the SQLite store's one transaction does.
extension InMemoryStore: ApplicationStore {
    public func insertApplication(_ application: Application, credentials: [FaceCredential]) async throws {
        try security.withLock { state in
            let taken = state.applications.contains { entry in
                entry.application.id == application.id || credentials.contains { Self.clash($0, entry.credentials) }
            }
            if taken {
                throw StoreError(code: "duplicate_application",
                                 message: "an application with this id or credential exists")
            }
            state.applications.append((application, credentials))
        }
    }

    /// Whether `credential` is an identifier one of `held` has already.
    private static func clash(_ credential: FaceCredential, _ held: [FaceCredential]) -> Bool {
        credential.kind == .identifier && held.contains {
            $0.kind == .identifier && $0.face == credential.face && $0.name == credential.name
                && $0.text == credential.text
        }
    }

    public func ensureApplication(_ application: Application) async throws -> Application {
        security.withLock { state in
            if let kept = state.applications.first(where: { $0.application.id == application.id }) {
                return kept.application
            }
            state.applications.append((application, []))
            return application
        }
    }

    public func application(id: String) async throws -> Application? {
        security.withLock { $0.applications.first { $0.application.id == id }?.application }
    }

    public func applications() async throws -> [Application] {
        security.withLock { $0.applications.map(\.application) }
    }

    public func revokeApplication(id: String, at: Date) async throws -> Bool {
        security.withLock { state in
            guard let index = state.applications.firstIndex(where: { $0.application.id == id }) else { return false }
            state.applications[index].application.revokedAt = state.applications[index].application.revokedAt ?? at
            for key in state.keys.indices where state.keys[key].key.applicationId == id {
                state.keys[key].key.revokedAt = state.keys[key].key.revokedAt ?? at
            }
            return true
        }
    }

    public func updateApplication(id: String, settings: ApplicationSettings) async throws -> Bool {
        security.withLock { state in
            guard let index = state.applications.firstIndex(where: { $0.application.id == id }) else { return false }
            state.applications[index].application.settings = settings
            return true
        }
    }

    public func pendingVerification(contact: String, application: String) async throws -> String? {
        state.withLock { state in
            state.verifications.values.first {
                $0.status == .pending && $0.contact == contact && $0.applicationId == application
            }?.id
        }
    }

    public func application(face: String, identifier name: String, value: String) async throws
        -> (Application, [FaceCredential])? {
        security.withLock { state in
            let probe = FaceCredential(face: face, name: name, kind: .identifier, text: value)
            guard let entry = state.applications.first(where: { Self.clash(probe, $0.credentials) }) else { return nil }
            return (entry.application, entry.credentials.filter { $0.face == face })
        }
    }

    public func faceCredentials(application: String, face: String) async throws -> [FaceCredential] {
        security.withLock { state in
            state.applications.first { $0.application.id == application }?.credentials.filter { $0.face == face } ?? []
        }
    }

    public func setFaceCredentials(_ credentials: [FaceCredential], application: String) async throws -> Bool {
        try security.withLock { state in
            guard let index = state.applications.firstIndex(where: { $0.application.id == application }) else {
                return false
            }
            let others = state.applications.indices.filter { $0 != index }
            if credentials.contains(where: { credential in
                others.contains { Self.clash(credential, state.applications[$0].credentials) }
            }) {
                throw StoreError(code: "duplicate_application", message: "another application has this credential")
            }
            for credential in credentials {
                state.applications[index].credentials.removeAll {
                    $0.face == credential.face && $0.name == credential.name
                }
                state.applications[index].credentials.append(credential)
            }
            return true
        }
    }
}
