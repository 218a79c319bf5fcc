extension SQLiteSchema {
    /// The send outbox kept by its key alone, after `insightMigrations`.
    ///
    /// Every create writes one send row and every delivery deletes it, so each index of the
    /// table is a B-tree insert and delete per code sent, and a page written to the WAL on
    /// both commits (docs/performance.md#the-send-outbox-kept-by-its-key). Kept without a
    /// rowid, the row sits in its key's B-tree: the key's own index and the one by
    /// verification go, since a verification's sends are the key range its id starts
    /// (`QueuedSend.keyPrefix`). What is left is the row and the claim's index by due time.
    static let sendOutboxMigrations = [
        Migration("sends_002_keyed_outbox", sql: """
            CREATE TABLE send_outbox_keyed (
                id TEXT PRIMARY KEY,
                request_id TEXT NOT NULL,
                step INTEGER NOT NULL,
                channel TEXT NOT NULL,
                sealed_code BLOB NOT NULL,
                created_at REAL NOT NULL,
                due_at REAL NOT NULL
            ) WITHOUT ROWID;
            INSERT INTO send_outbox_keyed (id, request_id, step, channel, sealed_code, created_at, due_at)
                SELECT id, request_id, step, channel, sealed_code, created_at, due_at FROM send_outbox;
            DROP TABLE send_outbox;
            ALTER TABLE send_outbox_keyed RENAME TO send_outbox;
            CREATE INDEX send_outbox_due ON send_outbox(due_at);
            """),
    ]
}
