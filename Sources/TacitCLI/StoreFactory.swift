import Foundation
import TacitServer
import TacitStore
import TacitStorePostgres
import TacitStoreSQLite

/// The store the settings name: PostgreSQL when `--database-url` (`TACIT_DATABASE_URL`)
/// is given, else the SQLite file at `--db`. Every command that opens a store opens it here.
enum StoreFactory {
    typealias Store = any VerificationStore & KeyStore & ApplicationStore

    static func open(_ configuration: ServerConfiguration) throws -> Store {
        if let url = configuration.databaseURL { return PostgresVerificationStore(url: url) }
        return try SQLiteVerificationStore(path: configuration.databasePath)
    }

    /// The store `tacit serve` runs on, and what it holds while it serves. On SQLite the
    /// process takes the file for itself (`SQLiteServingLock`, refusing a second server), so
    /// the sends a killed server had leased are due again at once rather than at their
    /// lease's end. PostgreSQL's instances share the outbox, and a dead one's leases run out
    /// there (docs/providers.md#durable-sends).
    static func openForServing(_ configuration: ServerConfiguration, now: Date) async throws
        -> (store: Store, held: SQLiteServingLock?)
    {
        guard configuration.databaseURL == nil else { return (try open(configuration), nil) }
        let lock = try SQLiteServingLock(databasePath: configuration.databasePath)
        let store = try SQLiteVerificationStore(path: configuration.databasePath)
        try await store.migrate()
        _ = try await store.releaseSendLeases(now: now)
        return (store, lock)
    }

    /// Whether `url` names a PostgreSQL database in the form libpq reads.
    static func isPostgresURL(_ url: String) -> Bool {
        url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
    }
}
