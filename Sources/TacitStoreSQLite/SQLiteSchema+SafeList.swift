extension SQLiteSchema {
    /// Applications' safe lists (docs/fraud.md#safe-list-and-risk_check), after `testNumberMigrations`.
    static let safeListMigrations = [
        Migration("fraud_002_safe_list", sql: """
            CREATE TABLE safe_list (
                application_id TEXT NOT NULL,
                entry TEXT NOT NULL,
                created_at REAL NOT NULL,
                PRIMARY KEY (application_id, entry)
            ) WITHOUT ROWID;
            """),
    ]
}
