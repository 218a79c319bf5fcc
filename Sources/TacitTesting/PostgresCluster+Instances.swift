import Foundation
import TacitStore
import TacitStorePostgres

extension PostgresCluster {
    /// `count` stores on the tables of one fresh schema, each with a pool of its own: the
    /// stores of that many instances sharing one database, for tests that never need to
    /// name the PostgreSQL store's type. `migrated: false` leaves the schema empty, for the
    /// applications they are given to migrate, as instances starting together do.
    public static func makeInstances(_ count: Int, migrated: Bool = true, poolSize: Int = 4) async throws
        -> [any VerificationStore & RateLimitStore] {
        let url = try await shared().makeSchema()
        let stores = (0..<max(count, 1)).map { _ in PostgresVerificationStore(url: url, poolSize: poolSize) }
        if migrated { try await stores[0].migrate() }
        return stores
    }

    /// A store on the database at `url` (from `makeDatabase()`), with a pool of its own.
    public static func openStore(url: String, poolSize: Int = 4) -> any VerificationStore {
        PostgresVerificationStore(url: url, poolSize: poolSize)
    }
}
