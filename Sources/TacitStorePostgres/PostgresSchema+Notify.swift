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
///   on `verifications` when a write moves `last_seq` on: every write of timeline events
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
}
