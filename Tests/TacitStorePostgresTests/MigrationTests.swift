import Foundation
import Testing
import TacitStore
import TacitStorePostgres
import TacitTesting

/// The PostgreSQL store's migrations, run by several instances at once.
@Suite("PostgreSQL migrations", .enabled(if: PostgresCluster.enabled))
struct MigrationTests {
    @Test("instances migrating one database together apply each migration once, and a later run applies nothing")
    func concurrentMigrationsRunOnce() async throws {
        let url = try await PostgresCluster.shared().makeDatabase()
        let stores = (0..<4).map { _ in PostgresVerificationStore(url: url, poolSize: 1) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores { group.addTask { try await store.migrate() } }
            try await group.waitForAll()
        }
        let pool = PostgresPool(conninfo: url, size: 1)
        let applied = try await pool.withConnection { db in try PostgresSchema.migrator.appliedMigrations(db) }
        #expect(applied.sorted() == PostgresSchema.migrator.migrations.map(\.name).sorted())
        let again = try await pool.withConnection { db in try PostgresSchema.migrator.migrate(db) }
        #expect(again.isEmpty)
        #expect(try await stores[0].application(id: Application.defaultID) != nil, "the default application exists once")
        #expect(try await stores[0].applications().count == 1)
    }

    @Test("a store that can't reach its database fails with a store error that names no secret")
    func unreachable() async throws {
        let port = try await PostgresCluster.shared().port
        let store = PostgresVerificationStore(url: "postgres://nobody:hunter2@127.0.0.1:\(port)/no_such_database")
        do {
            try await store.migrate()
            Issue.record("migrate succeeded")
        } catch let error as StoreError {
            #expect(error.code == "backend")
            #expect(!error.description.contains("hunter2"))
        }
    }
}
