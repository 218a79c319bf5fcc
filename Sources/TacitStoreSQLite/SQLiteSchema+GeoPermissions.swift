extension SQLiteSchema {
    /// Applications' geo permissions (docs/fraud.md#geo-permissions), after `safeListMigrations`:
    /// the countries as one comma-separated text, since they are always read and written whole.
    static let geoPermissionMigrations = [
        Migration("fraud_003_geo_permissions", sql: """
            CREATE TABLE geo_permissions (
                application_id TEXT NOT NULL,
                channel TEXT NOT NULL,
                countries TEXT NOT NULL,
                mode TEXT NOT NULL,
                updated_at REAL NOT NULL,
                PRIMARY KEY (application_id, channel)
            ) WITHOUT ROWID;
            """),
    ]
}
