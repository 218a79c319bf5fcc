/// The change feed's half in the database: triggers that send a notification from the
/// transaction that commits a change, so a notification goes out only if the change
/// committed, and whatever writes the rows (a create, an update, a later statement added
/// to either) notifies without being told to.
///
/// One channel per schema, so stores in different schemas of one database (the tests'
/// cluster) don't hear each other: `tacit_changes_` and the schema's name hashed, which
/// keeps the channel a short plain identifier whatever the schema is called.
///
/// Payloads carry ids and sequence numbers only (`StoreNotice`):
/// - `events <verification id> <last seq before> <last seq after>`, from the row trigger
///   on `verifications` when a write moves `last_seq` on, for a verification that some
///   instance follows (`followed_verifications`): every write of timeline events
///   writes the row with them, so one notification covers every event of the write;
/// - `outbox`, from a statement trigger on `webhook_outbox`. PostgreSQL folds identical
///   notifications of one transaction into one.
extension PostgresSchema {
    /// The channel of the schema named by the SQL expression `schema`.
    static func changeChannel(schema: String) -> String { "'tacit_changes_' || to_hex(hashtext(\(schema)))" }

    /// The statement the listener runs for its channel: the tables are in its current schema.
    static let changeChannelQuery = "SELECT \(changeChannel(schema: "current_schema()")) AS channel"

    static let changeFeed = PostgresMigrator.Migration("notify_001_change_feed", sql: """
        CREATE FUNCTION tacit_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            channel text := \(changeChannel(schema: "TG_TABLE_SCHEMA"));
            before integer := 0;
        BEGIN
            IF TG_TABLE_NAME = 'webhook_outbox' THEN
                PERFORM pg_notify(channel, 'outbox');
                RETURN NULL;
            END IF;
            IF TG_OP = 'UPDATE' THEN
                before := OLD.last_seq;
            END IF;
            IF NEW.last_seq > before THEN
                PERFORM pg_notify(channel, 'events ' || NEW.id || ' ' || before || ' ' || NEW.last_seq);
            END IF;
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER verifications_notify AFTER INSERT OR UPDATE OF last_seq ON verifications
            FOR EACH ROW EXECUTE FUNCTION tacit_notify_change();
        CREATE TRIGGER webhook_outbox_notify AFTER INSERT ON webhook_outbox
            FOR EACH STATEMENT EXECUTE FUNCTION tacit_notify_change();
        """)

    /// Events are announced only for verifications that some instance's live stream
    /// follows. A notification holds PostgreSQL's notify lock from the writer's commit
    /// through its WAL flush, so every notifying commit waits for the one before it: with
    /// one for every write, creates on one instance ran at two thirds of their rate without
    /// any. A verification is followed from before its stream's first read of the store to
    /// its deletion (`ChangeFeed.follow`); the trigger's lookup, in a volatile function,
    /// sees a follow committed after the writing statement began.
    static let followedFeed = PostgresMigrator.Migration("notify_002_followed_only", sql: """
        CREATE TABLE followed_verifications (
            verification_id text PRIMARY KEY REFERENCES verifications (id) ON DELETE CASCADE
        );
        CREATE OR REPLACE FUNCTION tacit_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            channel text := \(changeChannel(schema: "TG_TABLE_SCHEMA"));
        BEGIN
            IF TG_TABLE_NAME = 'webhook_outbox' THEN
                PERFORM pg_notify(channel, 'outbox');
                RETURN NULL;
            END IF;
            IF EXISTS (SELECT 1 FROM followed_verifications WHERE verification_id = NEW.id) THEN
                PERFORM pg_notify(channel, 'events ' || NEW.id || ' ' || OLD.last_seq || ' ' || NEW.last_seq);
            END IF;
            RETURN NULL;
        END
        $$;
        -- A verification is followed only once it exists, so its first write has no follower,
        -- and a write that adds no event has nothing to announce: neither runs the function.
        DROP TRIGGER verifications_notify ON verifications;
        CREATE TRIGGER verifications_notify AFTER UPDATE OF last_seq ON verifications
            FOR EACH ROW WHEN (NEW.last_seq > OLD.last_seq) EXECUTE FUNCTION tacit_notify_change();
        """)
}
