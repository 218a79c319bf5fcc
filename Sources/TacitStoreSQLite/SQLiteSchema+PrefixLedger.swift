extension SQLiteSchema {
    /// Protection levels and the prefix counters and blocks (docs/fraud.md#prefix-blocks),
    /// after `safeListMigrations`.
    static let prefixLedgerMigrations = [
        Migration("fraud_010_protection_level", sql: """
            ALTER TABLE applications ADD COLUMN fraud_level TEXT NOT NULL DEFAULT 'basic';
            """),
        Migration("fraud_011_prefix_ledger", sql: """
            CREATE TABLE prefix_counts (
                application_id TEXT NOT NULL,
                prefix TEXT NOT NULL,
                bucket INTEGER NOT NULL,
                sends INTEGER NOT NULL,
                conversions INTEGER NOT NULL,
                PRIMARY KEY (application_id, prefix, bucket)
            ) WITHOUT ROWID;
            CREATE INDEX prefix_counts_by_bucket ON prefix_counts (bucket);
            CREATE TABLE prefix_blocks (
                application_id TEXT NOT NULL,
                prefix TEXT NOT NULL,
                rule TEXT NOT NULL,
                blocked_at REAL NOT NULL,
                blocked_until REAL NOT NULL,
                strikes INTEGER NOT NULL,
                sends INTEGER NOT NULL,
                conversions INTEGER NOT NULL,
                baseline REAL,
                pardoned_until REAL,
                PRIMARY KEY (application_id, prefix)
            ) WITHOUT ROWID;
            """),
    ]
}
