import Foundation

/// Where applications live. Lookups by public identifier go through unique indexes; the
/// caller compares the secret's hash (the store never sees a secret).
public protocol ApplicationStore: Sendable {
    /// Adds an application with its faces' records (none for the default and dev
    /// applications); a taken identifier refuses the whole insert (`duplicate_application`).
    func insertApplication(_ application: Application, credentials: [FaceCredential]) async throws
    /// Adds the application unless one has its id; returns what is stored.
    func ensureApplication(_ application: Application) async throws -> Application
    func application(id: String) async throws -> Application?
    /// The application's settings (its starts' defaults), which a store may answer from a
    /// copy kept for a second (`KeptPerApplication`); nil when there is no such application.
    func applicationSettings(id: String) async throws -> ApplicationSettings?
    /// Every application, oldest first.
    func applications() async throws -> [Application]
    /// Marks the application and every API key of it revoked, in one transaction; false
    /// when no application has this id. Revoking twice keeps the first time.
    func revokeApplication(id: String, at: Date) async throws -> Bool
    /// Replaces the application's settings; false when no application has this id.
    func updateApplication(id: String, settings: ApplicationSettings) async throws -> Bool
    /// The application whose `face` identifier `name` is `value`, revoked or not, with every
    /// record it keeps for that face; nil when none.
    func application(face: String, identifier name: String, value: String) async throws
        -> (Application, [FaceCredential])?
    /// The records the application keeps for `face`.
    func faceCredentials(application: String, face: String) async throws -> [FaceCredential]
    /// Adds or replaces the application's records of the names given; false when no
    /// application has this id.
    func setFaceCredentials(_ credentials: [FaceCredential], application: String) async throws -> Bool
    /// The id of the application's pending verification of `contact` (`Verification.contact`:
    /// an E.164 number, or the normalized address of a verification of an address alone), if
    /// it has one: what a drop-in face needs to check a code by number or address or to name
    /// the verification in flight. Another application's is never found.
    func pendingVerification(contact: String, application: String) async throws -> String?
}

extension ApplicationStore {
    /// A store that keeps no copy reads the row each time.
    public func applicationSettings(id: String) async throws -> ApplicationSettings? {
        try await application(id: id)?.settings
    }
}
