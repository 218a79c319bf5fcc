extension PostgresSchema {
    /// Applications' geo permissions (docs/fraud.md#geo-permissions), as the SQLite store's
    /// `fraud_003_geo_permissions` adds them.
    static let geoPermissions = PostgresMigrator.Migration("fraud_003_geo_permissions", sql: """
        CREATE TABLE geo_permissions (
            application_id text NOT NULL,
            channel text NOT NULL,
            countries text NOT NULL,
            mode text NOT NULL,
            updated_at double precision NOT NULL,
            PRIMARY KEY (application_id, channel)
        );
        """)
}
