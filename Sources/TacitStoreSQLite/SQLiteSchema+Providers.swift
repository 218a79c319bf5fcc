extension SQLiteSchema {
    /// The migrations that real providers and applications brought (021 on), after
    /// `coreMigrations`.
    static let providerMigrations = [
        // Code messages owed, written with the step that issued the code and deleted with
        // the provider's answer, so a crash between the two neither loses nor repeats a send.
        Migration("021_durable_sends", sql: """
            CREATE TABLE send_outbox (
                id TEXT PRIMARY KEY,
                request_id TEXT NOT NULL,
                step INTEGER NOT NULL,
                channel TEXT NOT NULL,
                sealed_code BLOB NOT NULL,
                created_at REAL NOT NULL,
                due_at REAL NOT NULL
            );
            CREATE INDEX send_outbox_due ON send_outbox(due_at);
            CREATE INDEX send_outbox_request ON send_outbox(request_id);
            """),
        // Applications (docs/api.md#applications-and-keys): everything made before them joins `default`, the one
        // application the keys, verifications and idempotency records already there served.
        // A verification's application and face are columns, so the owner check reads one
        // column of one row. Webhook endpoints per application have a table; the server-wide
        // endpoints stay the ones every application without its own uses.
        Migration("022_applications", sql: """
            CREATE TABLE applications (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                created_at REAL NOT NULL,
                revoked_at REAL,
                brand TEXT,
                code_length INTEGER,
                channel_timeout INTEGER,
                vonage_callback_url TEXT,
                vonage_signature_secret BLOB,
                vonage_public_key TEXT,
                vonage_application_id TEXT UNIQUE,
                vonage_api_key TEXT UNIQUE,
                vonage_api_secret_hash BLOB,
                twilio_account_sid TEXT UNIQUE,
                twilio_auth_token_hash BLOB,
                twilio_service_sid TEXT UNIQUE
            );
            INSERT INTO applications (id, name, created_at)
                VALUES ('default', 'default', CAST(strftime('%s', 'now') AS REAL));
            ALTER TABLE api_keys ADD COLUMN application_id TEXT NOT NULL DEFAULT 'default';
            ALTER TABLE verifications ADD COLUMN application_id TEXT NOT NULL DEFAULT 'default';
            ALTER TABLE verifications ADD COLUMN face TEXT NOT NULL DEFAULT 'v1';
            ALTER TABLE idempotency ADD COLUMN application_id TEXT NOT NULL DEFAULT 'default';
            CREATE INDEX api_keys_by_application ON api_keys(application_id);
            CREATE TABLE application_webhooks (
                application_id TEXT NOT NULL,
                url TEXT NOT NULL,
                secret_sealed BLOB NOT NULL,
                created_at REAL NOT NULL,
                PRIMARY KEY (application_id, url)
            ) WITHOUT ROWID;
            """),
    ]
}
