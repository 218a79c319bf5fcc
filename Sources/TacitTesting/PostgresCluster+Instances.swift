import Foundation
import TacitStore
import TacitStorePostgres

extension PostgresCluster {
    /// `count` stores on the tables of one fresh schema, each with its own pool: what
    /// several instances on one database each open. Unmigrated: the applications they
    /// are given migrate them, as instances starting together do.
    public static func makeSharedStores(_ count: Int, poolSize: Int = 4) async throws -> [any VerificationStore] {
        let url = try await shared().makeSchema()
        return (0..<count).map { _ in PostgresVerificationStore(url: url, poolSize: poolSize) }
    }

    /// `count` stores on one fresh, migrated schema, each with a pool of its own: the
    /// stores of that many instances sharing one database, for tests that never need to
    /// name the PostgreSQL store's type.
    public static func makeInstances(_ count: Int, poolSize: Int = 4) async throws -> [any VerificationStore & RateLimitStore] {
        let (first, url) = try await makeStore(poolSize: poolSize)
        return [first] + (1..<max(count, 1)).map { _ in PostgresVerificationStore(url: url, poolSize: poolSize) }
    }

    /// A store on the database at `url` (from `makeDatabase()`), with a pool of its own.
    public static func openStore(url: String, poolSize: Int = 4) -> any VerificationStore {
        PostgresVerificationStore(url: url, poolSize: poolSize)
    }
}
