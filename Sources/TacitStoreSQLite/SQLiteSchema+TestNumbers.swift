extension SQLiteSchema {
    /// Applications' test numbers (docs/fraud.md#test-numbers), after `templateMigrations`.
    /// The fixed code is sealed like the other secrets at rest.
    static let testNumberMigrations = [
        Migration("fraud_001_test_numbers", sql: """
            CREATE TABLE test_numbers (
                application_id TEXT NOT NULL,
                phone_number TEXT NOT NULL,
                sealed_code BLOB NOT NULL,
                expires_at REAL,
                created_at REAL NOT NULL,
                PRIMARY KEY (application_id, phone_number)
            ) WITHOUT ROWID;
            """),
    ]
}
