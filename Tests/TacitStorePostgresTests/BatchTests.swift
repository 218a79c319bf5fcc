import Foundation
import Testing
@testable import TacitStorePostgres
import TacitTesting

/// Writes of one statement that find every connection busy go together, as one
/// transaction, when a connection comes free (`PostgresBatch`); each commits or fails as it
/// would alone.
@Suite("PostgreSQL write batches", .enabled(if: PostgresCluster.enabled))
struct BatchTests {
    static let writes = 6

    /// A pool of one connection, a table whose rows record the transaction that wrote
    /// them, and a second pool holding an advisory lock that the first one's connection
    /// will wait on.
    private struct Setup {
        let pool: PostgresPool
        let holder: PostgresPool
        /// Below 2³¹, so `pg_locks` shows it whole in `objid`.
        let lock = Int64.random(in: 1...Int64(Int32.max))
    }

    private func setup() async throws -> Setup {
        let url = try await PostgresCluster.shared().makeSchema()
        let setup = Setup(pool: PostgresPool(conninfo: url, size: 1), holder: PostgresPool(conninfo: url, size: 1))
        try await setup.pool.withConnection { db in
            try db.script("CREATE TABLE items (key text PRIMARY KEY, tx bigint NOT NULL)")
        }
        _ = try await setup.holder.withConnection { [lock = setup.lock] db in try db.query("SELECT pg_advisory_lock(\(lock))") }
        return setup
    }

    /// Keeps the pool's one connection busy (waiting on the holder's lock), queues `keys`
    /// as writes behind it, lets the connection go, and returns each write's outcome.
    private func writesBehindABusyConnection(_ setup: Setup, _ keys: [String],
                                             durable: @escaping @Sendable (String) -> Bool = { _ in true }) async throws
        -> [String: Result<Void, any Error>] {
        let lock = setup.lock
        let busy = Task { try await setup.pool.withConnection { db in
            _ = try db.query("SELECT pg_advisory_lock(\(lock))")
            _ = try db.query("SELECT pg_advisory_unlock(\(lock))")
        } }
        try await waitUntil { try await setup.holder.withConnection { db in
            try db.query("""
                SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid::bigint = \(lock) AND NOT granted
                """).count == 1
        } }
        let writes = keys.map { key in
            Task { () -> Result<Void, any Error> in
                do {
                    try await setup.pool.write("INSERT INTO items (key, tx) VALUES (\(key), txid_current())", key: key,
                                               durable: durable(key))
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
        }
        try await waitUntil { setup.pool.waitingWrites == keys.count }
        _ = try await setup.holder.withConnection { db in try db.query("SELECT pg_advisory_unlock(\(lock))") }
        try await busy.value
        var outcomes: [String: Result<Void, any Error>] = [:]
        for (key, write) in zip(keys, writes) { outcomes[key] = await write.value }
        return outcomes
    }

    /// Polls `condition`, yielding between looks, for ten seconds at most: the tasks it
    /// waits for need a turn of the cooperative threads, which a busy run hands out late.
    private func waitUntil(_ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            await Task.yield()
        }
        Issue.record("the condition never held")
    }

    private func transactions(_ pool: PostgresPool) async throws -> [String: Int] {
        try await pool.withConnection { db in
            Dictionary(uniqueKeysWithValues: try db.query("SELECT key, tx FROM items").map { (try $0.string("key"), try $0.int("tx")) })
        }
    }

    @Test("writes waiting for a busy connection commit together, in one transaction")
    func waitingWritesShareATransaction() async throws {
        let setup = try await setup()
        let keys = (0..<Self.writes).map { "k\($0)" }
        let outcomes = try await writesBehindABusyConnection(setup, keys)
        for key in keys { #expect((try? outcomes[key]?.get()) != nil, "\(key) committed") }
        let written = try await transactions(setup.pool)
        #expect(Set(written.keys) == Set(keys))
        #expect(Set(written.values).count == 1, "one transaction wrote them all")
    }

    @Test("a write that fails in a batch fails alone with its own error; the others commit")
    func failingWriteFailsAlone() async throws {
        let setup = try await setup()
        try await setup.pool.write("INSERT INTO items (key, tx) VALUES (\("taken"), 0)", key: "taken")
        let keys = ["a", "taken", "b", "c"]
        let outcomes = try await writesBehindABusyConnection(setup, keys)
        for key in ["a", "b", "c"] { #expect((try? outcomes[key]?.get()) != nil, "\(key) committed") }
        #expect(throws: PostgresError.self) { try outcomes["taken"]?.get() }
        let written = try await transactions(setup.pool)
        #expect(Set(written.keys) == ["a", "b", "c", "taken"])
        #expect(written["taken"] == 0, "the row already there is unchanged")
    }

    @Test("writes that commit asynchronously are batched only with each other, never with durable ones")
    func asynchronousWritesGoApart() async throws {
        let setup = try await setup()
        let keys = ["d1", "a1", "d2", "a2", "d3"]
        let outcomes = try await writesBehindABusyConnection(setup, keys) { $0.hasPrefix("d") }
        for key in keys { #expect((try? outcomes[key]?.get()) != nil, "\(key) committed") }
        let written = try await transactions(setup.pool)
        let durable = Set(["d1", "d2", "d3"].compactMap { written[$0] }), asynchronous = Set(["a1", "a2"].compactMap { written[$0] })
        #expect(durable.count == 1 && asynchronous.count == 1, "one batch of each kind")
        #expect(durable.isDisjoint(with: asynchronous))
    }
}
