import Foundation

/// Which public identifier a drop-in face looks an application up by.
public enum CredentialLookup: Sendable, Equatable {
    /// A Vonage JWT's `application_id` claim.
    case vonageApplication(String)
    /// A Vonage Basic user name.
    case vonageAPIKey(String)
    /// A Twilio Basic user name.
    case twilioAccount(String)
}

/// Where applications live. Lookups by public identifier go through unique indexes; the
/// caller compares the secret's hash (the store never sees a secret).
public protocol ApplicationStore: Sendable {
    /// Adds an application; `credentials` nil for one without drop-in credentials
    /// (the default and dev applications).
    func insertApplication(_ application: Application, credentials: ApplicationCredentials?) async throws
    /// Adds the application unless one has its id; returns what is stored.
    func ensureApplication(_ application: Application) async throws -> Application
    func application(id: String) async throws -> Application?
    /// The application's settings (its starts' defaults), which a store may answer from a
    /// copy kept for a second (`KeptApplicationSettings`); nil when there is no such application.
    func applicationSettings(id: String) async throws -> ApplicationSettings?
    /// Every application, oldest first.
    func applications() async throws -> [Application]
    /// Marks the application and every API key of it revoked, in one transaction; false
    /// when no application has this id. Revoking twice keeps the first time.
    func revokeApplication(id: String, at: Date) async throws -> Bool
    /// Replaces the application's settings; false when no application has this id.
    func updateApplication(id: String, settings: ApplicationSettings) async throws -> Bool
    /// The application and credentials `lookup` names, revoked or not; nil when none.
    func application(matching lookup: CredentialLookup) async throws -> (Application, ApplicationCredentials)?
    /// The id of the application's pending verification of `phoneNumber` (E.164), if it
    /// has one: what a drop-in face needs to check a code by number (Twilio's `To`) or to
    /// name the verification in flight (Vonage's 409). Another application's is never found.
    func pendingVerification(phoneNumber: String, application: String) async throws -> String?
}

extension ApplicationStore {
    /// A store that keeps no copy reads the row each time.
    public func applicationSettings(id: String) async throws -> ApplicationSettings? {
        try await application(id: id)?.settings
    }
}
