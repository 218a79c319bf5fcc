extension PostgresSchema {
    /// Applications' test numbers (docs/fraud.md#test-numbers), as the SQLite store's
    /// `fraud_001_test_numbers` adds them.
    static let testNumbers = PostgresMigrator.Migration("fraud_001_test_numbers", sql: """
        CREATE TABLE test_numbers (
            application_id text NOT NULL,
            phone_number text NOT NULL,
            sealed_code bytea NOT NULL,
            expires_at double precision,
            created_at double precision NOT NULL,
            PRIMARY KEY (application_id, phone_number)
        );
        """)
}
