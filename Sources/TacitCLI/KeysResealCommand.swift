import TacitServer
import TacitStore

/// `tacit keys reseal`: seals every stored number and reply again under the newest key,
/// then forgets the older keys' fingerprints so a start without them is allowed.
enum KeysResealCommand {
    static func run(_ configuration: ServerConfiguration, _ context: CommandContext) async throws -> Int32 {
        // SQLite at --db or PostgreSQL at --database-url; both seal again in place.
        let opened = try StoreFactory.open(configuration)
        guard let store = opened as? any VerificationStore & ResealableStore else {
            throw Arguments.UsageError(message: "this store can't be resealed")
        }
        try await store.migrate()
        // Like a production start: refused when the database holds data no given key opens.
        var production = configuration
        production.dev = false
        let ring = try await KeyRing.load(configuration: production, store: store)
        let secrets = ServerSecrets(ring: ring)
        store.protect(with: secrets.fieldProtection)
        let report = try await store.reseal(current: secrets.fieldProtection.currentHeader)
        context.print("Resealed \(report.numbers) numbers and \(report.replies) stored replies"
                      + " under key \(ring.newest.name).")
        if report.applicationSecrets > 0 {
            context.print("Resealed \(report.applicationSecrets) application signature secrets too.")
        }
        if report.legacyAPIKeys > 0 {
            context.print("Note: \(report.legacyAPIKeys) API keys were made before this version and are hashed"
                          + " under a master key; they stop working if it is removed: create new ones and revoke them"
                          + " first.")
        }
        guard report.remaining == 0 else {
            context.printError("tacit keys reseal: \(report.remaining) fields were written under an older key"
                               + " meanwhile; restart every server with the new key file and run reseal again")
            return 1
        }
        try await ring.forgetOlderKeys(in: store)
        if report.pending > 0 {
            context.print("\(report.pending) of them are still pending: their codes and client tokens stay hashed"
                          + " under the older key until they finish, so keep it until then (minutes).")
        }
        context.print("Everything stored is sealed under the newest key: the older keys can be removed from the key"
                      + " file.")
        return 0
    }
}
