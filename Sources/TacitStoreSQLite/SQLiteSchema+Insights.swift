import TacitStore

extension SQLiteSchema {
    /// The list's filters and the insights rollups (docs/api.md#insights), after `geoPermissionMigrations`.
    static let insightMigrations = [
        // The list reads an application's verifications newest first from where the page
        // before ended: one index over (application, created, id) serves every page. Region
        // and client reference are columns for its filters; rows from before have none.
        // Rollups are one row per application, dimension, period (an hour, and its day), key and
        // currency, added to in the transaction of each change that counts; retention never
        // deletes them. Keyed by period before dimension: the rows one change moves (eight for a
        // create) sit side by side, in two leaf pages (its hour's and its day's) rather than
        // one per dimension, and a commit writes two pages instead of eight.
        Migration("insights_001_list_and_rollups", sql: """
            ALTER TABLE verifications ADD COLUMN region TEXT;
            ALTER TABLE verifications ADD COLUMN client_ref TEXT;
            CREATE INDEX verifications_by_application_created ON verifications(application_id, created_at, id);
            CREATE TABLE insight_rollups (
                application_id TEXT NOT NULL,
                dimension TEXT NOT NULL,
                span INTEGER NOT NULL,
                hour INTEGER NOT NULL,
                key TEXT NOT NULL,
                currency TEXT NOT NULL,
                \(InsightCounts.firstColumns.map { "\($0) INTEGER NOT NULL DEFAULT 0" }.joined(separator: ", ")),
                PRIMARY KEY (application_id, span, hour, dimension, key, currency)
            ) WITHOUT ROWID;
            """),
        // Delivery receipts per provider: delivered, undelivered, and the time to deliver's histogram.
        Migration("insights_002_delivery_receipts", sql: InsightCounts.deliveryColumns.map {
            "ALTER TABLE insight_rollups ADD COLUMN \($0) INTEGER NOT NULL DEFAULT 0;"
        }.joined(separator: "\n")),
    ]
}
