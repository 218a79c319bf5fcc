extension SQLiteSchema {
    /// The migrations that moved the last per-process counters into the store, after
    /// `providerMigrations`.
    static let counterMigrations = [
        // The conversion monitor's windows (SMS pumping shows as a drop in verified codes
        // per sent code), counted by every instance into one row per window.
        Migration("counters_conversion_windows", sql: """
            CREATE TABLE conversion_windows (
                slot INTEGER PRIMARY KEY,
                sends INTEGER NOT NULL,
                verified INTEGER NOT NULL
            );
            """),
    ]
}
