import Foundation
import TacitStore

/// Applications' message templates in `message_templates`, one row per channel and locale.
extension SQLiteVerificationStore: TemplateStore {
    /// Through a copy kept for a second (`KeptPerApplication`): every send reads them.
    public func templates(application: String) async throws -> [MessageTemplate] {
        try await keptTemplates.value(of: application) { try await storedTemplates(application: application) }
    }

    private func storedTemplates(application: String) async throws -> [MessageTemplate] {
        try await database.read { db in
            try db.query("""
                SELECT * FROM message_templates WHERE application_id = \(application) ORDER BY channel, locale
                """).map { row in
                MessageTemplate(applicationId: application, channel: try row.string("channel"),
                                locale: try row.string("locale"), body: try row.string("body"),
                                subject: try row.optionalString("subject"),
                                updatedAt: Date(timeIntervalSince1970: try row.double("updated_at")))
            }
        }
    }

    public func setTemplate(_ template: MessageTemplate) async throws -> Bool {
        defer { keptTemplates.forget(template.applicationId) }
        return try await database.write { db in
            guard try !db.query("SELECT 1 FROM applications WHERE id = \(template.applicationId)").isEmpty else {
                return false
            }
            try db.execute("""
                INSERT INTO message_templates (application_id, channel, locale, body, subject, updated_at)
                VALUES (\(template.applicationId), \(template.channel), \(template.locale), \(template.body),
                    \(template.subject), \(template.updatedAt.timeIntervalSince1970))
                ON CONFLICT (application_id, channel, locale) DO UPDATE SET body = excluded.body,
                    subject = excluded.subject, updated_at = excluded.updated_at
                """)
            return true
        }
    }

    public func deleteTemplate(application: String, channel: String, locale: String) async throws -> Bool {
        defer { keptTemplates.forget(application) }
        return try await database.write { db in
            try db.execute("""
                DELETE FROM message_templates
                WHERE application_id = \(application) AND channel = \(channel) AND locale = \(locale)
                """)
            return db.changes == 1
        }
    }
}
