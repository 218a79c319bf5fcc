import Testing
import TacitStoreSQLite

@Suite("SQLite connection")
struct SQLiteConnectionTests {
    let file: TemporaryDatabase
    let connection: SQLiteConnection

    init() throws {
        file = try TemporaryDatabase()
        connection = try SQLiteConnection(path: file.path)
        try connection.executeScript("""
            CREATE TABLE items (
                id INTEGER PRIMARY KEY, name TEXT UNIQUE, amount REAL, flag INTEGER, data BLOB, note TEXT
            )
            """)
    }

    @Test("opens in WAL mode with foreign keys on and synchronous NORMAL by default")
    func pragmas() throws {
        #expect(try connection.query("PRAGMA journal_mode").first?.string("journal_mode") == "wal")
        #expect(try connection.query("PRAGMA foreign_keys").first?.int("foreign_keys") == 1)
        #expect(try connection.query("PRAGMA synchronous").first?.int("synchronous") == 1)
        let full = try SQLiteConnection(path: file.path, options: SQLiteOptions(synchronous: .full))
        #expect(try full.query("PRAGMA synchronous").first?.int("synchronous") == 2)
    }

    @Test("every bound type reads back as it went in")
    func roundTrip() throws {
        let blob: [UInt8] = [0, 1, 2, 255]
        let note: String? = nil
        try connection.execute("""
            INSERT INTO items (id, name, amount, flag, data, note)
            VALUES (\(Int64(1) << 40), \("naïve ☎️ \u{0}tail"), \(2.5), \(true), \(blob), \(note))
            """)
        let row = try #require(try connection.query("SELECT * FROM items").first)
        #expect(try row.int64("id") == 1 << 40)
        #expect(try row.string("name") == "naïve ☎️ \u{0}tail")
        #expect(try row.double("amount") == 2.5)
        #expect(try row.bool("flag"))
        #expect(try row.blob("data") == blob)
        #expect(try row.optionalString("note") == nil)
        #expect(try row["id", as: Int.self] == 1 << 40)
        #expect(try row["note", as: String?.self] == nil)
    }

    @Test("empty strings and empty blobs stay empty, not NULL")
    func emptyValues() throws {
        try connection.execute("INSERT INTO items (name, data) VALUES (\(""), \([UInt8]()))")
        let row = try #require(try connection.query("SELECT name, data FROM items").first)
        #expect(try row.string("name") == "")
        #expect(try row.blob("data") == [])
    }

    @Test("an injection attempt is stored as a plain value")
    func injection() throws {
        let hostile = "x'); DROP TABLE items; --"
        try connection.execute("INSERT INTO items (name) VALUES (\(hostile))")
        let rows = try connection.query("SELECT name FROM items WHERE name = \(hostile)")
        #expect(try rows.map { try $0.string("name") } == [hostile])
        #expect(try connection.query("SELECT count(*) AS n FROM items").first?.int("n") == 1)
    }

    @Test("more than one statement in a query is refused")
    func multipleStatements() {
        #expect(throws: SQLiteError.self) {
            try connection.execute("INSERT INTO items (name) VALUES ('a'); DELETE FROM items")
        }
    }

    @Test("a unique violation is a typed constraint error without the value in it")
    func constraintViolation() throws {
        try connection.execute("INSERT INTO items (name) VALUES (\("secret-value"))")
        do {
            try connection.execute("INSERT INTO items (name) VALUES (\("secret-value"))")
            Issue.record("expected a constraint violation")
        } catch {
            #expect(error.isConstraintViolation)
            #expect(error.isUniqueViolation)
            #expect(error.code == 19)
            #expect(!error.description.contains("secret-value"))
        }
    }

    @Test("lastInsertRowID and changes report the last statement")
    func rowIDAndChanges() throws {
        try connection.execute("INSERT INTO items (id, name) VALUES (41, 'a')")
        #expect(connection.lastInsertRowID == 41)
        try connection.execute("INSERT INTO items (name) VALUES ('b')")
        #expect(connection.lastInsertRowID == 42)
        try connection.execute("UPDATE items SET flag = \(1)")
        #expect(connection.changes == 2)
    }

    @Test("a missing column or a wrong type is a typed error")
    func badReads() throws {
        try connection.execute("INSERT INTO items (name, amount) VALUES ('a', 1.5)")
        let row = try #require(try connection.query("SELECT name, amount FROM items").first)
        #expect(throws: SQLiteError.self) { try row.string("missing") }
        #expect(throws: SQLiteError.self) { try row.int("name") }
        #expect(throws: SQLiteError.self) { try row.string("amount") }
    }

    @Test("a cached statement runs again with new values")
    func statementReuse() throws {
        for index in 0..<5 { try connection.execute("INSERT INTO items (name) VALUES (\("n\(index)"))") }
        let rows = try connection.query("SELECT name FROM items WHERE name > \("n2") ORDER BY name")
        #expect(try rows.map { try $0.string("name") } == ["n3", "n4"])
    }

    @Test("calls after close throw instead of crashing")
    func closed() {
        connection.close()
        #expect(throws: SQLiteError.self) { try connection.query("SELECT 1") }
    }
}
