import Foundation
import Testing
@testable import TacitStorePostgres
import TacitTesting

/// A required change (`PostgresQuery.requiringChange`) fails its transaction when it changes
/// no row, so the statements after it need not wait for its answer; the writes of its WITH
/// list stand or fall with it.
@Suite("PostgreSQL required changes", .enabled(if: PostgresCluster.enabled))
struct RequiredChangeTests {
    /// A pool of one connection on a migrated schema, with one table of unique keys.
    private func pool() async throws -> PostgresPool {
        let pool = PostgresPool(conninfo: try await PostgresCluster.shared().makeSchema(), size: 1)
        try await pool.withConnection { db in
            _ = try PostgresSchema.migrator.migrate(db)
            try db.script("CREATE TABLE items (key text PRIMARY KEY, n int NOT NULL)")
            try db.execute("INSERT INTO items (key, n) VALUES (\("a"), 1)")
        }
        return pool
    }

    private func items(_ pool: PostgresPool) async throws -> [String] {
        try await pool.withConnection { db in
            try db.query("SELECT key, n FROM items ORDER BY key").map { "\(try $0.string("key"))=\(try $0.int("n"))" }
        }
    }

    @Test("a required change that changes no row fails with nothing-changed, and the writes along with it and after it are undone")
    func nothingChangedRollsBack() async throws {
        let pool = try await pool()
        let error = await #expect(throws: PostgresError.self) {
            try await pool.transaction { db in
                try db.queue(.requiringChange("UPDATE items SET n = 2 WHERE key = \("missing")",
                                              along: ["INSERT INTO items (key, n) VALUES (\("along"), 1)"]))
                try db.queue("INSERT INTO items (key, n) VALUES (\("after"), 1)")
            }
        }
        #expect(error?.isNothingChanged == true)
        #expect(try await items(pool) == ["a=1"])
    }

    @Test("a required change that changes its row commits with every write along with it")
    func changedCommitsEveryPart() async throws {
        let pool = try await pool()
        try await pool.transaction { db in
            try db.queue(.requiringChange("UPDATE items SET n = 2 WHERE key = \("a")",
                                          along: ["INSERT INTO items (key, n) VALUES (\("b"), 1)",
                                                  "INSERT INTO items (key, n) VALUES (\("c"), 1)"]))
        }
        #expect(try await items(pool) == ["a=2", "b=1", "c=1"])
    }

    @Test("a write along with a required change that fails fails the statement with its own error")
    func failingPartFailsTheStatement() async throws {
        let pool = try await pool()
        let error = await #expect(throws: PostgresError.self) {
            try await pool.transaction { db in
                try db.queue(.requiringChange("UPDATE items SET n = 2 WHERE key = \("a")",
                                              along: ["INSERT INTO items (key, n) VALUES (\("a"), 5)"]))
            }
        }
        #expect(error?.isUniqueViolation == true)
        #expect(try await items(pool) == ["a=1"])
    }
}
