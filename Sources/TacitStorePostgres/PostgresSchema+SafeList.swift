extension PostgresSchema {
    /// Applications' safe lists (docs/fraud.md#safe-list-and-risk_check), as the SQLite
    /// store's `fraud_002_safe_list` adds them.
    static let safeList = PostgresMigrator.Migration("fraud_002_safe_list", sql: """
        CREATE TABLE safe_list (
            application_id text NOT NULL,
            entry text NOT NULL,
            created_at double precision NOT NULL,
            PRIMARY KEY (application_id, entry)
        );
        """)
}
