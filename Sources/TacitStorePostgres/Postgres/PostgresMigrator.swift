/// Applies named migrations in order, each once, recording them in
/// `schema_migrations(name, applied_at)`.
///
/// The whole run holds a session advisory lock, so instances starting together on one
/// database queue behind it: the first applies the migrations, the others then find
/// them recorded and apply nothing. The lock is per schema (the tables' own), so stores
/// in different schemas of one database don't wait for each other. Each migration commits with its record, in one
/// transaction, so a crash leaves it either applied and recorded or not at all.
public struct PostgresMigrator: Sendable {
    public struct Migration: Sendable {
        public let name: String
        /// A fixed script, with no values in it.
        public let sql: String
        public init(_ name: String, sql: String) {
            self.name = name
            self.sql = sql
        }
    }

    /// The advisory lock's first key: any fixed number no other user of the database
    /// takes; the second is the schema's name, hashed.
    static let lockKey: Int32 = 0x7461_6369   // "taci"

    public let migrations: [Migration]

    public init(_ migrations: [Migration]) {
        precondition(Set(migrations.map(\.name)).count == migrations.count,
                     "PostgresMigrator: duplicate migration name")
        self.migrations = migrations
    }

    /// Applies every migration not applied yet; returns their names.
    @discardableResult
    public func migrate(_ connection: PostgresConnection) throws -> [String] {
        try connection.execute("SELECT pg_advisory_lock(\(Int(Self.lockKey))::integer, hashtext(current_schema()))")
        defer {
            _ = try? connection.execute(
                "SELECT pg_advisory_unlock(\(Int(Self.lockKey))::integer, hashtext(current_schema()))")
        }
        try connection.script("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name text PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        let recorded = Set(try connection.query("SELECT name FROM schema_migrations").map { try $0.string("name") })
        var applied: [String] = []
        for migration in migrations where !recorded.contains(migration.name) {
            try connection.transaction {
                try connection.script(migration.sql)
                try connection.execute("INSERT INTO schema_migrations (name) VALUES (\(migration.name))")
            }
            applied.append(migration.name)
        }
        return applied
    }

    /// The names recorded as applied, in the order they were applied.
    public func appliedMigrations(_ connection: PostgresConnection) throws -> [String] {
        try connection.query("SELECT name FROM schema_migrations ORDER BY applied_at, name")
            .map { try $0.string("name") }
    }
}
