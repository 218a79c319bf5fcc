import Testing
import TacitStoreSQLite

@Suite("Migrator")
struct MigratorTests {
    struct Boom: Error {}

    static let migrator = Migrator([
        Migration("001_create_people", sql: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"),
        Migration("002_add_email", sql: "ALTER TABLE people ADD COLUMN email TEXT"),
    ])

    @Test("migrations apply in order once, and a second open applies nothing")
    func idempotent() throws {
        let file = try TemporaryDatabase()
        do {
            let connection = try SQLiteConnection(path: file.path)
            #expect(try Self.migrator.migrate(connection) == ["001_create_people", "002_add_email"])
            try connection.execute("INSERT INTO people (name, email) VALUES ('a', 'a@example.com')")
        }
        let reopened = try SQLiteConnection(path: file.path)
        #expect(try Self.migrator.migrate(reopened) == [])
        #expect(try Self.migrator.appliedMigrations(reopened) == ["001_create_people", "002_add_email"])
        #expect(try reopened.query("SELECT count(*) AS n FROM people").first?.int("n") == 1)
    }

    @Test("a new migration added later applies alone")
    func incremental() throws {
        let file = try TemporaryDatabase()
        let connection = try SQLiteConnection(path: file.path)
        try Migrator([Self.migrator.migrations[0]]).migrate(connection)
        #expect(try Self.migrator.migrate(connection) == ["002_add_email"])
    }

    @Test("a failing migration leaves no trace and is not recorded")
    func failure() throws {
        let file = try TemporaryDatabase()
        let connection = try SQLiteConnection(path: file.path)
        let failing = Migrator([
            Migration("001_half") { connection in
                try connection.executeScript("CREATE TABLE half (id INTEGER)")
                throw Boom()
            },
        ])
        #expect(throws: Boom.self) { try failing.migrate(connection) }
        #expect(try failing.appliedMigrations(connection) == [])
        #expect(try connection.query("SELECT name FROM sqlite_master WHERE name = 'half'").isEmpty)
    }
}
