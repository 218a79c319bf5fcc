extension PostgresSchema {
    /// Applications' message templates and their SMS autofill settings (docs/locales.md),
    /// as the SQLite store's `templates_001_message_templates` adds them.
    static let templates = PostgresMigrator.Migration("templates_001_message_templates", sql: """
        CREATE TABLE message_templates (
            application_id text NOT NULL,
            channel text NOT NULL,
            locale text NOT NULL,
            body text NOT NULL,
            subject text,
            updated_at double precision NOT NULL,
            PRIMARY KEY (application_id, channel, locale)
        );
        ALTER TABLE applications ADD COLUMN sms_app_hash text, ADD COLUMN sms_origin text;
        """)
}
