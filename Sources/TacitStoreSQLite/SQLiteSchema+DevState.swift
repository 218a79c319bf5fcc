extension SQLiteSchema {
    /// The tables of `--dev`'s provider state (see `DevStateStore`), after `providerMigrations`.
    static let devStateMigrations = [
        // Numbers, bodies and secrets are sealed, as a verification's number is: a copy of
        // the file holds none of them in clear.
        Migration("devstate_001_dev_state", sql: """
            CREATE TABLE dev_gateway_sessions (
                id TEXT PRIMARY KEY,
                number_sealed BLOB NOT NULL,
                redirect_uri TEXT,
                expires_at REAL NOT NULL,
                used INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            CREATE INDEX dev_gateway_sessions_expiry ON dev_gateway_sessions(expires_at);
            CREATE TABLE dev_inbox (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                number_index TEXT NOT NULL,
                channel TEXT NOT NULL,
                body_sealed BLOB NOT NULL,
                at TEXT NOT NULL
            );
            CREATE INDEX dev_inbox_number ON dev_inbox(number_index, seq);
            CREATE TABLE dev_secrets (
                name TEXT PRIMARY KEY,
                value BLOB NOT NULL
            ) WITHOUT ROWID;
            """),
    ]
}
