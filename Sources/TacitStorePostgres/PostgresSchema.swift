/// The PostgreSQL store's migrations. It starts from the SQLite store's schema as it
/// stands, not its history, and keeps the guarantees several instances need in the
/// database itself: a unique partial index holds one pending verification per number and
/// application, a version column makes every update a compare-and-set, and counters and
/// keys live in tables, never in one process.
///
/// Times are seconds since 1970 (`double precision`) as in the SQLite store, so rows read
/// the same whichever store wrote them.
public enum PostgresSchema {
    public static let migrator = PostgresMigrator([
        PostgresMigrator.Migration("pg_001_verifications", sql: """
            CREATE TABLE verifications (
                id text PRIMARY KEY,
                position bigserial NOT NULL,
                application_id text NOT NULL,
                face text NOT NULL,
                phone_index text NOT NULL,
                phone_sealed bytea NOT NULL,
                status text NOT NULL,
                deadline double precision,
                created_at double precision NOT NULL,
                updated_at double precision NOT NULL,
                finished_at double precision,
                last_seq integer NOT NULL,
                version bigint NOT NULL,
                record bytea NOT NULL
            );
            -- What the single writer made true on SQLite, the database enforces here: two
            -- instances starting a verification of one number at once can't both commit.
            CREATE UNIQUE INDEX verifications_one_pending_per_number
                ON verifications (application_id, phone_index) WHERE status = 'pending';
            CREATE INDEX verifications_pending_deadline ON verifications (deadline) WHERE status = 'pending';
            CREATE INDEX verifications_finished ON verifications (finished_at) WHERE finished_at IS NOT NULL;
            CREATE TABLE events (
                verification_id text NOT NULL,
                seq integer NOT NULL,
                body bytea NOT NULL,
                PRIMARY KEY (verification_id, seq)
            );
            CREATE TABLE idempotency (
                key text PRIMARY KEY,
                application_id text NOT NULL,
                request_hash bytea NOT NULL,
                status integer NOT NULL,
                body bytea NOT NULL,
                created_at double precision NOT NULL
            );
            CREATE INDEX idempotency_created ON idempotency (created_at);
            CREATE TABLE settings (
                name text PRIMARY KEY,
                value bytea NOT NULL
            );
            """),
        PostgresMigrator.Migration("pg_002_keys_and_limits", sql: """
            CREATE TABLE api_keys (
                id text PRIMARY KEY,
                application_id text NOT NULL,
                name text NOT NULL,
                key_hash bytea NOT NULL UNIQUE,
                scopes text NOT NULL,
                created_at double precision NOT NULL,
                last_used_at double precision,
                revoked_at double precision
            );
            CREATE INDEX api_keys_by_application ON api_keys (application_id);
            CREATE TABLE rate_limits (
                key text PRIMARY KEY,
                buckets text NOT NULL,
                expires_at double precision NOT NULL
            );
            CREATE INDEX rate_limits_expiry ON rate_limits (expires_at);
            """),
        PostgresMigrator.Migration("pg_003_outboxes", sql: """
            CREATE TABLE webhook_outbox (
                id text PRIMARY KEY,
                position bigserial NOT NULL,
                endpoint text NOT NULL,
                verification_id text NOT NULL,
                type text NOT NULL,
                payload bytea NOT NULL,
                created_at double precision NOT NULL,
                attempts integer NOT NULL,
                next_attempt_at double precision NOT NULL,
                state text NOT NULL
            );
            CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at) WHERE state = 'pending';
            CREATE INDEX webhook_outbox_verification ON webhook_outbox (verification_id);
            CREATE TABLE webhook_endpoints_disabled (
                endpoint text PRIMARY KEY,
                disabled_at double precision NOT NULL
            );
            CREATE TABLE callback_replay (
                key text PRIMARY KEY,
                expires_at double precision NOT NULL
            );
            CREATE INDEX callback_replay_expiry ON callback_replay (expires_at);
            CREATE TABLE send_outbox (
                id text PRIMARY KEY,
                position bigserial NOT NULL,
                verification_id text NOT NULL,
                step integer NOT NULL,
                channel text NOT NULL,
                sealed_code bytea NOT NULL,
                created_at double precision NOT NULL,
                due_at double precision NOT NULL
            );
            CREATE INDEX send_outbox_due ON send_outbox (due_at);
            CREATE INDEX send_outbox_verification ON send_outbox (verification_id);
            """),
        PostgresMigrator.Migration("pg_004_applications", sql: """
            CREATE TABLE applications (
                id text PRIMARY KEY,
                name text NOT NULL,
                created_at double precision NOT NULL,
                revoked_at double precision,
                brand text,
                code_length integer,
                channel_timeout integer,
                vonage_callback_url text,
                vonage_signature_secret bytea,
                vonage_public_key text,
                vonage_application_id text UNIQUE,
                vonage_api_key text UNIQUE,
                vonage_api_secret_hash bytea,
                twilio_account_sid text UNIQUE,
                twilio_auth_token_hash bytea,
                twilio_service_sid text UNIQUE
            );
            INSERT INTO applications (id, name, created_at) VALUES ('default', 'default', extract(epoch FROM now()));
            """),
        // The conversion monitor's windows, one row per window, counted by every instance.
        PostgresMigrator.Migration("counters_conversion_windows", sql: """
            CREATE TABLE conversion_windows (
                slot bigint PRIMARY KEY,
                sends integer NOT NULL,
                verified integer NOT NULL
            );
            """),
        changeFeed,
    ] + devStateMigrations + [followedFeed, requiredChange, faceCredentials, templates, testNumbers, safeList,
                                  geoPermissions] + prefixLedger + [insights, insightReceipts])
}
