import Dispatch
import Testing
import TacitStoreSQLite

@Suite("SQLite database (async, queue-confined connections)")
struct SQLiteDatabaseTests {
    static let migrator = Migrator([
        Migration("001_counter", sql: "CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL); INSERT INTO counter VALUES (1, 0)"),
    ])

    @Test("many concurrent read-modify-write tasks all land: no lost updates")
    func concurrentWrites() async throws {
        let file = try TemporaryDatabase()
        let database = try SQLiteDatabase(path: file.path)
        try await database.migrate(Self.migrator)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    try await database.write { connection in
                        let n = try connection.query("SELECT n FROM counter WHERE id = 1")[0].int("n")
                        try connection.execute("UPDATE counter SET n = \(n + 1) WHERE id = 1")
                    }
                }
            }
            try await group.waitForAll()
        }
        let total = try await database.read { try $0.query("SELECT n FROM counter")[0].int("n") }
        #expect(total == 200)
    }

    @Test("the read connection sees committed writes and refuses to write")
    func reader() async throws {
        let file = try TemporaryDatabase()
        let database = try SQLiteDatabase(path: file.path)
        try await database.migrate(Self.migrator)
        try await database.write { try $0.execute("UPDATE counter SET n = \(5)") }
        #expect(try await database.read { try $0.query("SELECT n FROM counter")[0].int("n") } == 5)
        await #expect(throws: SQLiteError.self) {
            try await database.read { try $0.execute("UPDATE counter SET n = 6") }
        }
    }

    @Test("a read that finds the first reader busy runs on another connection instead of waiting")
    func readsInParallel() async throws {
        let file = try TemporaryDatabase()
        let database = try SQLiteDatabase(path: file.path)
        try await database.migrate(Self.migrator)
        let firstInside = DispatchSemaphore(value: 0), secondDone = DispatchSemaphore(value: 0)
        async let first: Bool = database.read { connection in
            firstInside.signal()
            // Holds its connection until the second read has run; with one connection it never would.
            let overlapped = secondDone.wait(timeout: .now() + 5) == .success
            _ = try connection.query("SELECT n FROM counter")
            return overlapped
        }
        let second: Int = try await Task.detached {
            firstInside.wait()
            defer { secondDone.signal() }
            return try await database.read { try $0.query("SELECT n FROM counter")[0].int("n") }
        }.value
        #expect(second == 0)
        #expect(try await first)
    }

    @Test("an error thrown in a write reaches the caller and rolls back its transaction")
    func writeErrors() async throws {
        let file = try TemporaryDatabase()
        let database = try SQLiteDatabase(path: file.path)
        try await database.migrate(Self.migrator)
        await #expect(throws: SQLiteError.self) {
            try await database.write { connection in
                try connection.execute("UPDATE counter SET n = 9")
                try connection.execute("INSERT INTO counter VALUES (1, 0)")
            }
        }
        #expect(try await database.read { try $0.query("SELECT n FROM counter")[0].int("n") } == 0)
    }

    @Test("a failing write among concurrent ones undoes only its own statements")
    func failingWriteInBatch() async throws {
        struct Refused: Error {}
        let file = try TemporaryDatabase()
        let database = try SQLiteDatabase(path: file.path)
        try await database.migrate(Self.migrator)
        let failures = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<40 {
                group.addTask {
                    do {
                        try await database.write { connection in
                            try connection.execute("UPDATE counter SET n = n + 1")
                            if index % 2 == 1 { throw Refused() }
                        }
                        return false
                    } catch {
                        return error is Refused
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 20)
        #expect(try await database.read { try $0.query("SELECT n FROM counter")[0].int("n") } == 20)
    }

    @Test("data survives close and reopen, and migrations don't run twice")
    func reopen() async throws {
        let file = try TemporaryDatabase()
        let first = try SQLiteDatabase(path: file.path)
        #expect(try await first.migrate(Self.migrator) == ["001_counter"])
        try await first.write { try $0.execute("UPDATE counter SET n = \(42)") }
        await first.close()
        await #expect(throws: SQLiteError.self) { try await first.read { try $0.query("SELECT 1") } }

        let second = try SQLiteDatabase(path: file.path)
        #expect(try await second.migrate(Self.migrator) == [])
        #expect(try await second.read { try $0.query("SELECT n FROM counter")[0].int("n") } == 42)
    }
}
