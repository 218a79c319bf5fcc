import Testing
import TacitStoreSQLite

/// What a transaction's writes accumulate is written once, just before its COMMIT, with
/// what its released savepoints added and nothing of what rolled back.
@Suite("SQLite commit accumulators")
struct CommitAccumulatorTests {
    struct Boom: Error {}

    /// Sums values and writes the sum as one row per flush.
    final class Sum: CommitAccumulator {
        var total = 0
        init() {}
        func absorb(_ released: Sum) { total += released.total }
        func flush(_ connection: SQLiteConnection) throws {
            try connection.execute("INSERT INTO sums VALUES (\(total))")
        }
    }

    let file: TemporaryDatabase
    let connection: SQLiteConnection

    init() throws {
        file = try TemporaryDatabase()
        connection = try SQLiteConnection(path: file.path)
        try connection.executeScript("CREATE TABLE sums (v INTEGER NOT NULL)")
    }

    func sums() throws -> [Int] {
        try connection.query("SELECT v FROM sums ORDER BY rowid").map { try $0.int("v") }
    }

    func add(_ value: Int) throws {
        try connection.accumulate(Sum.self) { $0.total += value }
    }

    @Test("the savepoints of one transaction are written once, together, at its commit")
    func released() throws {
        try connection.transaction {
            try connection.transaction { try add(1) }
            try connection.transaction {
                try add(2)
                try connection.transaction { try add(4) }
            }
            #expect(try sums() == [], "nothing is written before the commit")
        }
        #expect(try sums() == [7])
    }

    @Test("a savepoint that rolls back leaves nothing of what it added, nested ones included")
    func rolledBack() throws {
        try connection.transaction {
            try connection.transaction { try add(1) }
            _ = try? connection.transaction {
                try add(10)
                try connection.transaction { try add(100) }
                throw Boom()
            }
            try connection.transaction { try add(2) }
        }
        #expect(try sums() == [3])
    }

    @Test("a transaction that throws writes nothing, and the next starts empty")
    func failedTransaction() throws {
        #expect(throws: Boom.self) {
            try connection.transaction {
                try add(5)
                throw Boom()
            }
        }
        try connection.transaction { try add(1) }
        #expect(try sums() == [1])
    }

    @Test("outside a transaction of its own, what is added is written at once")
    func alone() throws {
        try add(3)
        #expect(try sums() == [3])
        try connection.executeScript("BEGIN")
        try add(4)
        try connection.executeScript("ROLLBACK")
        #expect(try sums() == [3], "written inside the outer transaction, it went with it")
    }
}
