extension PostgresSchema {
    /// Protection levels and the prefix counters and blocks (docs/fraud.md#prefix-blocks), as
    /// the SQLite store's `fraud_010_protection_level` and `fraud_011_prefix_ledger` add them.
    static let prefixLedger = [
        PostgresMigrator.Migration("fraud_010_protection_level", sql: """
            ALTER TABLE applications ADD COLUMN fraud_level text NOT NULL DEFAULT 'basic';
            """),
        PostgresMigrator.Migration("fraud_011_prefix_ledger", sql: """
            CREATE TABLE prefix_counts (
                application_id text NOT NULL,
                prefix text NOT NULL,
                bucket bigint NOT NULL,
                sends integer NOT NULL,
                conversions integer NOT NULL,
                PRIMARY KEY (application_id, prefix, bucket)
            );
            CREATE INDEX prefix_counts_by_bucket ON prefix_counts (bucket);
            CREATE TABLE prefix_blocks (
                application_id text NOT NULL,
                prefix text NOT NULL,
                rule text NOT NULL,
                blocked_at double precision NOT NULL,
                blocked_until double precision NOT NULL,
                strikes integer NOT NULL,
                sends integer NOT NULL,
                conversions integer NOT NULL,
                baseline double precision,
                pardoned_until double precision,
                PRIMARY KEY (application_id, prefix)
            );
            """),
    ]
}
