extension PostgresSchema {
    /// The tables of `--dev`'s provider state (see `DevStateStore`), after the store's own.
    static let devStateMigrations = [
        // Numbers, bodies and secrets are sealed, as a verification's number is.
        PostgresMigrator.Migration("devstate_001_dev_state", sql: """
            CREATE TABLE dev_gateway_sessions (
                id text PRIMARY KEY,
                number_sealed bytea NOT NULL,
                redirect_uri text,
                expires_at double precision NOT NULL,
                used boolean NOT NULL DEFAULT false
            );
            CREATE INDEX dev_gateway_sessions_expiry ON dev_gateway_sessions (expires_at);
            CREATE TABLE dev_inbox (
                seq bigserial PRIMARY KEY,
                number_index text NOT NULL,
                channel text NOT NULL,
                body_sealed bytea NOT NULL,
                at text NOT NULL
            );
            CREATE INDEX dev_inbox_number ON dev_inbox (number_index, seq);
            CREATE TABLE dev_secrets (
                name text PRIMARY KEY,
                value bytea NOT NULL
            );
            """),
    ]
}
