import TacitStore

extension PostgresSchema {
    /// The list's filters and the insights rollups (docs/api.md#insights): an index over
    /// (application, created, id) serves every page of the list from where the page before
    /// ended; rollups are one row per application, dimension, period (an hour, and its day), key and
    /// currency, added
    /// to in the transaction of each change that counts, and never deleted by retention.
    static let insights = PostgresMigrator.Migration("insights_001_list_and_rollups", sql: """
        ALTER TABLE verifications ADD COLUMN region text;
        ALTER TABLE verifications ADD COLUMN client_ref text;
        CREATE INDEX verifications_by_application_created ON verifications (application_id, created_at, id);
        CREATE TABLE insight_rollups (
            application_id text NOT NULL,
            dimension text NOT NULL,
            span bigint NOT NULL,
            hour bigint NOT NULL,
            key text NOT NULL,
            currency text NOT NULL,
            \(InsightCounts.firstColumns.map { "\($0) bigint NOT NULL DEFAULT 0" }.joined(separator: ", ")),
            PRIMARY KEY (application_id, span, hour, dimension, key, currency)
        );
        """)
}

extension PostgresSchema {
    /// Delivery receipts per provider (docs/api.md#the-summary): delivered, undelivered, and the
    /// time to deliver's histogram, beside the counts `insights_001` made.
    static let insightReceipts = PostgresMigrator.Migration("insights_002_delivery_receipts", sql: """
        ALTER TABLE insight_rollups \(InsightCounts.deliveryColumns.map {
            "ADD COLUMN \($0) bigint NOT NULL DEFAULT 0"
        }.joined(separator: ", "));
        """)
}
