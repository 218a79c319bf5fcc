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
}
