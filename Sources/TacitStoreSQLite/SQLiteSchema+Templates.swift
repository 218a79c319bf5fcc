extension SQLiteSchema {
    /// Applications' message templates and their SMS autofill settings (docs/locales.md),
    /// after `faceCredentialMigrations`.
    static let templateMigrations = [
        Migration("templates_001_message_templates", sql: """
            CREATE TABLE message_templates (
                application_id TEXT NOT NULL,
                channel TEXT NOT NULL,
                locale TEXT NOT NULL,
                body TEXT NOT NULL,
                subject TEXT,
                updated_at REAL NOT NULL,
                PRIMARY KEY (application_id, channel, locale)
            ) WITHOUT ROWID;
            ALTER TABLE applications ADD COLUMN sms_app_hash TEXT;
            ALTER TABLE applications ADD COLUMN sms_origin TEXT;
            """),
    ]
}
