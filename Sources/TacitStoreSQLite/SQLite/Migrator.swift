/// Applies named migrations in order, each at most once, recording them in
/// `schema_migrations(name, applied_at)`.
///
/// Each migration runs in its own `BEGIN IMMEDIATE` transaction together with
/// its record, so a crash leaves it either fully applied and recorded or not at
/// all, and two processes starting at once can't both apply it.
public struct Migrator: Sendable {
    /// The migrations, in the order they apply.
    public private(set) var migrations: [Migration]

    public init(_ migrations: [Migration] = []) {
        self.migrations = []
        for migration in migrations { register(migration) }
    }

    /// Appends a migration; names must be unique.
    public mutating func register(_ migration: Migration) {
        precondition(!migrations.contains { $0.name == migration.name }, "Migrator: duplicate migration name")
        migrations.append(migration)
    }

    /// Applies every migration not applied yet and returns their names.
    @discardableResult
    public func migrate(_ connection: SQLiteConnection) throws -> [String] {
        try connection.executeScript("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name TEXT PRIMARY KEY NOT NULL,
                applied_at TEXT NOT NULL
            )
            """)
        var applied: [String] = []
        for migration in migrations where try apply(migration, on: connection) {
            applied.append(migration.name)
        }
        return applied
    }

    /// The names recorded as applied, in the order they were applied.
    public func appliedMigrations(_ connection: SQLiteConnection) throws -> [String] {
        try connection.query("SELECT name FROM schema_migrations ORDER BY rowid").map { try $0.string("name") }
    }

    /// Applies one migration unless recorded; true when it ran.
    private func apply(_ migration: Migration, on connection: SQLiteConnection) throws -> Bool {
        try connection.transaction {
            let recorded = try connection.query(
                "SELECT 1 AS found FROM schema_migrations WHERE name = \(migration.name)")
            guard recorded.isEmpty else { return false }
            try migration.apply(connection)
            try connection.execute("""
                INSERT INTO schema_migrations (name, applied_at)
                VALUES (\(migration.name), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                """)
            return true
        }
    }
}
