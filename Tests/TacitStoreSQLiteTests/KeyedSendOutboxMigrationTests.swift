import Foundation
import Testing
import TacitStore
import TacitStoreSQLite

/// The send outbox kept by its key alone (`sends_002_keyed_outbox`).
@Suite("The send outbox across sends_002")
struct KeyedSendOutboxMigrationTests {
    @Test("a send owed before the migration is still owed after it, with its lease, and the outbox has one index left")
    func owedSendSurvives() async throws {
        let file = try TemporaryDatabase()
        let key = QueuedSend.key(verificationId: "v1", step: 2)
        do {
            let connection = try SQLiteConnection(path: file.path)
            let before = SQLiteSchema.migrator.migrations.prefix { $0.name != "sends_002_keyed_outbox" }
            try Migrator(Array(before)).migrate(connection)
            try connection.execute("""
                INSERT INTO send_outbox (id, request_id, step, channel, sealed_code, created_at, due_at)
                VALUES (\(key), 'v1', 2, 'sms', X'0909', 100, 130)
                """)
            connection.close()
        }
        let store = try SQLiteVerificationStore(path: file.path)
        try await store.migrate()
        let owed = try await store.queuedSends(verificationId: "v1")
        let created = Date(timeIntervalSince1970: 100), due = Date(timeIntervalSince1970: 130)
        #expect(owed == [QueuedSend(id: key, verificationId: "v1", step: 2, channel: "sms", sealedCode: [9, 9],
                                    createdAt: created, dueAt: due)])
        #expect(try await store.nextSendDue() == Date(timeIntervalSince1970: 130))

        let connection = try SQLiteConnection(path: file.path)
        defer { connection.close() }
        let indexes = try connection
            .query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'send_outbox'")
            .map { try $0.string("name") }
        #expect(indexes == ["send_outbox_due"], "the key's own index and the one by verification are gone")
    }
}
