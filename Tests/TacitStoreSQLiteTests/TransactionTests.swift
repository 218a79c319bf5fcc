import Testing
import TacitStoreSQLite

@Suite("SQLite transactions")
struct TransactionTests {
    struct Boom: Error {}

    let file: TemporaryDatabase
    let connection: SQLiteConnection

    init() throws {
        file = try TemporaryDatabase()
        connection = try SQLiteConnection(path: file.path)
        try connection.executeScript("CREATE TABLE t (v INTEGER NOT NULL)")
    }

    func values() throws -> [Int] {
        try connection.query("SELECT v FROM t ORDER BY v").map { try $0.int("v") }
    }

    @Test("a transaction that returns is committed")
    func commit() throws {
        let result = try connection.transaction {
            try connection.execute("INSERT INTO t VALUES (\(1))")
            return "done"
        }
        #expect(result == "done")
        #expect(try values() == [1])
        #expect(!connection.isInTransaction)
    }

    @Test("a transaction that throws is rolled back and the error passes through")
    func rollback() throws {
        #expect(throws: Boom.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (\(1))")
                throw Boom()
            }
        }
        #expect(try values() == [])
        #expect(!connection.isInTransaction)
    }

    @Test("a failing nested transaction undoes only its own work")
    func nested() throws {
        try connection.transaction {
            try connection.execute("INSERT INTO t VALUES (\(1))")
            _ = try? connection.transaction {
                try connection.execute("INSERT INTO t VALUES (\(2))")
                throw Boom()
            }
            try connection.transaction { try connection.execute("INSERT INTO t VALUES (\(3))") }
        }
        #expect(try values() == [1, 3])
    }
}
