import Foundation
import TacitStore

/// Applications held in memory beside the API keys, under the same lock, so revoking an
/// application revokes its keys at once, as the SQLite store's one transaction does.
extension InMemoryStore: ApplicationStore {
    public func insertApplication(_ application: Application, credentials: ApplicationCredentials?) async throws {
        try security.withLock { state in
            let taken = state.applications.contains { entry in
                entry.application.id == application.id || (credentials != nil && entry.credentials.map { Self.clash($0, credentials!) } == true)
            }
            if taken { throw StoreError(code: "duplicate_application", message: "an application with this id or credential exists") }
            state.applications.append((application, credentials))
        }
    }

    private static func clash(_ a: ApplicationCredentials, _ b: ApplicationCredentials) -> Bool {
        a.vonageApplicationId == b.vonageApplicationId || a.vonageAPIKey == b.vonageAPIKey
            || a.twilioAccountSid == b.twilioAccountSid || a.twilioServiceSid == b.twilioServiceSid
    }

    public func ensureApplication(_ application: Application) async throws -> Application {
        security.withLock { state in
            if let kept = state.applications.first(where: { $0.application.id == application.id }) { return kept.application }
            state.applications.append((application, nil))
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

    public func pendingVerification(phoneNumber: String, application: String) async throws -> String? {
        state.withLock { state in
            state.verifications.values.first {
                $0.status == .pending && $0.phoneNumber == phoneNumber && $0.applicationId == application
            }?.id
        }
    }

    public func application(matching lookup: CredentialLookup) async throws -> (Application, ApplicationCredentials)? {
        security.withLock { state in
            for entry in state.applications {
                guard let credentials = entry.credentials else { continue }
                let matches = switch lookup {
                case .vonageApplication(let id): credentials.vonageApplicationId == id
                case .vonageAPIKey(let key): credentials.vonageAPIKey == key
                case .twilioAccount(let sid): credentials.twilioAccountSid == sid
                }
                if matches { return (entry.application, credentials) }
            }
            return nil
        }
    }
}
