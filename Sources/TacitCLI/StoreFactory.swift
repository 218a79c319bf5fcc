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

    /// Whether `url` names a PostgreSQL database in the form libpq reads.
    static func isPostgresURL(_ url: String) -> Bool {
        url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
    }
}
