/// The store's migrations, named and applied in order.
public enum SQLiteSchema {
    public static let migrator = Migrator(
        coreMigrations + providerMigrations + devStateMigrations + counterMigrations + faceCredentialMigrations
            + templateMigrations + testNumberMigrations + safeListMigrations + geoPermissionMigrations
            + prefixLedgerMigrations + insightMigrations + sendOutboxMigrations)

    /// The migrations up to retention's column (001 to 020); `providerMigrations` follow.
    static let coreMigrations = [
        Migration("001_verifications", sql: """
            CREATE TABLE verifications (
                id TEXT PRIMARY KEY,
                phone_index TEXT NOT NULL,
                phone_sealed BLOB NOT NULL,
                status TEXT NOT NULL,
                deadline REAL,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                last_seq INTEGER NOT NULL,
                record BLOB NOT NULL
            );
            CREATE UNIQUE INDEX verifications_one_pending_per_number ON verifications(phone_index)
                WHERE status = 'pending';
            CREATE INDEX verifications_pending_deadline ON verifications(deadline) WHERE status = 'pending';
            CREATE TABLE events (
                request_id TEXT NOT NULL,
                seq INTEGER NOT NULL,
                body BLOB NOT NULL,
                PRIMARY KEY (request_id, seq)
            ) WITHOUT ROWID;
            CREATE TABLE idempotency (
                key TEXT PRIMARY KEY,
                request_hash BLOB NOT NULL,
                status INTEGER NOT NULL,
                body BLOB NOT NULL,
                created_at REAL NOT NULL
            );
            CREATE TABLE settings (
                name TEXT PRIMARY KEY,
                value BLOB NOT NULL
            );
            """),
        Migration("002_api_keys", sql: """
            CREATE TABLE api_keys (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                key_hash BLOB NOT NULL UNIQUE,
                scopes TEXT NOT NULL,
                created_at REAL NOT NULL,
                last_used_at REAL,
                revoked_at REAL
            );
            """),
        Migration("003_rate_limits", sql: """
            CREATE TABLE rate_limits (
                key TEXT PRIMARY KEY,
                window_start REAL NOT NULL,
                hits INTEGER NOT NULL
            ) WITHOUT ROWID;
            """),
        Migration("004_client_token_index", sql: """
            ALTER TABLE verifications ADD COLUMN client_token_hash BLOB;
            CREATE INDEX verifications_pending_client_token ON verifications(client_token_hash)
                WHERE status = 'pending';
            """),
        Migration("010_webhook_outbox", sql: """
            CREATE TABLE webhook_outbox (
                id TEXT PRIMARY KEY,
                endpoint TEXT NOT NULL,
                request_id TEXT NOT NULL,
                type TEXT NOT NULL,
                payload BLOB NOT NULL,
                created_at REAL NOT NULL,
                attempts INTEGER NOT NULL,
                next_attempt_at REAL NOT NULL,
                state TEXT NOT NULL
            );
            CREATE INDEX webhook_outbox_due ON webhook_outbox(next_attempt_at) WHERE state = 'pending';
            CREATE INDEX webhook_outbox_request ON webhook_outbox(request_id);
            CREATE TABLE webhook_endpoints_disabled (
                endpoint TEXT PRIMARY KEY,
                disabled_at REAL NOT NULL
            );
            """),
        Migration("011_callback_replay", sql: """
            CREATE TABLE callback_replay (
                key TEXT PRIMARY KEY,
                expires_at REAL NOT NULL
            );
            CREATE INDEX callback_replay_expiry ON callback_replay(expires_at);
            """),
        // Counters written before this migration keep a day: the longest window any limit uses.
        Migration("012_rate_limit_expiry", sql: """
            ALTER TABLE rate_limits ADD COLUMN expires_at REAL NOT NULL DEFAULT 0;
            UPDATE rate_limits SET expires_at = window_start + 86400;
            CREATE INDEX rate_limits_expiry ON rate_limits(expires_at);
            """),
        Migration("013_idempotency_age", sql: """
            CREATE INDEX idempotency_created ON idempotency(created_at);
            """),
        // Events keyed by request id put each new event on a random page of the largest
        // table: every write dirtied and often split one. Stored in arrival order, new events
        // land on the table's last page; only the small (request_id, seq) index is random.
        Migration("014_events_in_arrival_order", sql: """
            CREATE TABLE events_in_order (
                id INTEGER PRIMARY KEY,
                request_id TEXT NOT NULL,
                seq INTEGER NOT NULL,
                body BLOB NOT NULL
            );
            INSERT INTO events_in_order (request_id, seq, body) SELECT request_id, seq, body FROM events;
            DROP TABLE events;
            ALTER TABLE events_in_order RENAME TO events;
            CREATE UNIQUE INDEX events_by_request ON events(request_id, seq);
            """),
        // One row for the events one change records (a right code's check records three),
        // holding them as a JSON array in seq order: every event row cost the writer a table
        // insert and an index insert of its own. The `events` view still lists one row per event.
        Migration("015_events_grouped_per_change", sql: """
            CREATE TABLE event_groups (
                id INTEGER PRIMARY KEY,
                request_id TEXT NOT NULL,
                first_seq INTEGER NOT NULL,
                last_seq INTEGER NOT NULL,
                body BLOB NOT NULL
            );
            INSERT INTO event_groups (request_id, first_seq, last_seq, body)
                SELECT request_id, seq, seq, CAST('[' || CAST(body AS TEXT) || ']' AS BLOB) FROM events ORDER BY id;
            DROP TABLE events;
            CREATE UNIQUE INDEX event_groups_by_request ON event_groups(request_id, last_seq);
            CREATE VIEW events (request_id, seq, body) AS
                SELECT g.request_id, json_extract(e.value, '$.seq'), e.value
                FROM event_groups g, json_each(CAST(g.body AS TEXT)) e;
            """),
        // A client token now names its verification, so nothing looks tokens up by hash any
        // more; the index cost every create a random page.
        Migration("016_no_client_token_hash", sql: """
            DROP INDEX verifications_pending_client_token;
            ALTER TABLE verifications DROP COLUMN client_token_hash;
            """),
        // "One pending verification per number" was a unique index over pending rows only:
        // every create added a random page of it and every finished verification removed
        // one. An index over all rows never changes after the insert; the create checks the
        // number's newest row instead (see `SQLiteVerificationStore.insert`).
        Migration("017_number_index_over_all_rows", sql: """
            DROP INDEX verifications_one_pending_per_number;
            CREATE INDEX verifications_by_number ON verifications(phone_index);
            """),
        // A check's group of events went into an index by request at a random page. Now each
        // group links back to the one before it, and the verification row (rewritten by
        // every change anyway) names its newest; reads walk back from there.
        Migration("018_event_groups_linked", sql: """
            ALTER TABLE event_groups ADD COLUMN previous INTEGER;
            ALTER TABLE verifications ADD COLUMN last_group INTEGER;
            UPDATE event_groups SET previous = (
                SELECT p.id FROM event_groups p
                WHERE p.request_id = event_groups.request_id AND p.last_seq < event_groups.first_seq
                ORDER BY p.last_seq DESC LIMIT 1);
            UPDATE verifications SET last_group = (
                SELECT g.id FROM event_groups g WHERE g.request_id = verifications.id ORDER BY g.last_seq DESC LIMIT 1);
            DROP INDEX event_groups_by_request;
            """),
        // Counters slide instead of restarting at clock-aligned windows: each row keeps its
        // buckets (see SlidingWindow). A row from a fixed window becomes one bucket at the
        // window's start, so it counts until that window's end, as it did.
        Migration("019_rate_limit_buckets", sql: """
            ALTER TABLE rate_limits ADD COLUMN buckets TEXT NOT NULL DEFAULT '';
            UPDATE rate_limits SET buckets = printf('%.3f:%d', window_start, hits) WHERE hits > 0;
            """),
        // Retention deletes verifications some days after they finish, oldest first: the
        // sweep finds them by the time they finished. Only finished rows are in the index,
        // so a create writes nothing to it and a verification enters it once, as it finishes.
        // Rows finished before this migration count from their last write, never earlier.
        Migration("020_finished_at", sql: """
            ALTER TABLE verifications ADD COLUMN finished_at REAL;
            UPDATE verifications SET finished_at = updated_at WHERE status != 'pending';
            CREATE INDEX verifications_finished ON verifications(finished_at) WHERE finished_at IS NOT NULL;
            """),
    ]
}
