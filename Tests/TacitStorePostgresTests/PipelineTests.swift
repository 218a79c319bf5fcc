import Foundation
import Testing
import TacitStorePostgres
import TacitTesting

/// A transaction's queued statements travel with the next statement whose answer is
/// needed, or with its COMMIT: they must behave as if each had run on its own.
@Suite("PostgreSQL pipelined transactions", .enabled(if: PostgresCluster.enabled))
struct PipelineTests {
    /// A pool of one connection on a fresh schema with one table of unique keys.
    private func pool() async throws -> PostgresPool {
        let pool = PostgresPool(conninfo: try await PostgresCluster.shared().makeSchema(), size: 1)
        try await pool.withConnection { db in try db.script("CREATE TABLE items (key text PRIMARY KEY, n int NOT NULL)") }
        return pool
    }

    private func keys(_ pool: PostgresPool) async throws -> [String] {
        try await pool.withConnection { db in try db.query("SELECT key FROM items ORDER BY key").map { try $0.string("key") } }
    }

    @Test("a statement whose answer is needed sees the rows queued before it in its transaction")
    func queuedRowsAreVisibleToTheNextQuery() async throws {
        let pool = try await pool()
        let count = try await pool.transaction { db in
            try db.queue("INSERT INTO items (key, n) VALUES (\("a"), 1)")
            try db.queue("INSERT INTO items (key, n) VALUES (\("b"), 2)")
            return try db.query("SELECT count(*) AS n FROM items").first?.int("n")
        }
        #expect(count == 2)
        #expect(try await keys(pool) == ["a", "b"])
    }

    @Test("a queued statement that fails at the commit throws its own error and rolls back the whole transaction")
    func failingQueuedStatementRollsBack() async throws {
        let pool = try await pool()
        _ = try await pool.withConnection { db in try db.execute("INSERT INTO items (key, n) VALUES (\("taken"), 0)") }
        do {
            try await pool.transaction { db in
                try db.execute("INSERT INTO items (key, n) VALUES (\("first"), 1)")
                try db.queue("INSERT INTO items (key, n) VALUES (\("taken"), 2)")
                try db.queue("INSERT INTO items (key, n) VALUES (\("after"), 3)")
            }
            Issue.record("the transaction committed")
        } catch let error as PostgresError {
            #expect(error.isUniqueViolation)
        }
        #expect(try await keys(pool) == ["taken"])
    }

    @Test("a body that throws after queueing statements commits none of them, and the connection serves the next transaction")
    func throwingBodyDiscardsQueuedStatements() async throws {
        struct Refused: Error {}
        let pool = try await pool()
        await #expect(throws: Refused.self) {
            try await pool.transaction { db in
                try db.queue("INSERT INTO items (key, n) VALUES (\("queued"), 1)")
                throw Refused()
            }
        }
        try await pool.transaction { db in try db.queue("INSERT INTO items (key, n) VALUES (\("next"), 2)") }
        #expect(try await keys(pool) == ["next"])
    }

    @Test("a transaction of one statement sends it alone, without BEGIN and COMMIT; one of two is a transaction block")
    func oneStatementGoesAlone() async throws {
        let pool = try await pool()
        // SAVEPOINT runs only inside a transaction block: sent alone, it is refused.
        let error = await #expect(throws: PostgresError.self) {
            try await pool.transaction { db in try db.queue("SAVEPOINT alone") }
        }
        #expect(error?.sqlState == "25P01", "no active SQL transaction")
        try await pool.transaction { db in
            try db.queue("SAVEPOINT inside")
            try db.queue("INSERT INTO items (key, n) VALUES (\("two"), 2)")
        }
        try await pool.transaction { db in try db.queue("INSERT INTO items (key, n) VALUES (\("one"), 1)") }
        #expect(try await keys(pool) == ["one", "two"])
    }

    @Test("outside a transaction a queued statement runs at once")
    func queueOutsideTransactionRunsAtOnce() async throws {
        let pool = try await pool()
        try await pool.withConnection { db in try db.queue("INSERT INTO items (key, n) VALUES (\("now"), 1)") }
        #expect(try await keys(pool) == ["now"])
    }
}
