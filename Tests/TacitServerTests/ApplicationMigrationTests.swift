import Foundation
import Testing
import TacitServer
import TacitStore
import TacitStoreSQLite
import TacitTesting

/// A database from before applications: its keys, verifications and idempotency records
/// join the `default` application when it is opened, and go on working.
@Suite("Applications migration", .timeLimit(.minutes(1)))
struct ApplicationMigrationTests {
    /// The migrations before applications.
    static let previous = Migrator(Array(SQLiteSchema.migrator.migrations.prefix { !$0.name.hasSuffix("_applications") }))

    /// Takes the database back to the schema `previous` makes, keeping every row (the later
    /// migrations are undone too; their tables hold none of them).
    static func downgrade(_ path: String) throws {
        let connection = try SQLiteConnection(path: path)
        defer { connection.close() }
        try connection.executeScript("""
            DROP TABLE send_outbox;
            CREATE TABLE send_outbox (id TEXT PRIMARY KEY, request_id TEXT NOT NULL, step INTEGER NOT NULL,
                channel TEXT NOT NULL, sealed_code BLOB NOT NULL, created_at REAL NOT NULL, due_at REAL NOT NULL);
            CREATE INDEX send_outbox_due ON send_outbox(due_at);
            CREATE INDEX send_outbox_request ON send_outbox(request_id);
            DELETE FROM schema_migrations WHERE name = 'sends_002_keyed_outbox';
            DROP INDEX verifications_by_application_created;
            DROP TABLE insight_rollups;
            ALTER TABLE verifications DROP COLUMN region;
            ALTER TABLE verifications DROP COLUMN client_ref;
            DELETE FROM schema_migrations WHERE name LIKE 'insights_%';
            DROP TABLE applications;
            DROP TABLE application_webhooks;
            DROP INDEX api_keys_by_application;
            ALTER TABLE api_keys DROP COLUMN application_id;
            ALTER TABLE verifications DROP COLUMN application_id;
            ALTER TABLE verifications DROP COLUMN face;
            ALTER TABLE idempotency DROP COLUMN application_id;
            DELETE FROM schema_migrations WHERE name = '022_applications';
            DROP TABLE dev_gateway_sessions;
            DROP TABLE dev_inbox;
            DROP TABLE dev_secrets;
            DELETE FROM schema_migrations WHERE name LIKE 'devstate_%';
            DROP TABLE conversion_windows;
            DELETE FROM schema_migrations WHERE name = 'counters_conversion_windows';
            DROP TABLE face_credentials;
            DELETE FROM schema_migrations WHERE name LIKE 'faces_%';
            DROP TABLE message_templates;
            DELETE FROM schema_migrations WHERE name LIKE 'templates_%';
            DROP TABLE test_numbers;
            DROP TABLE safe_list;
            DROP TABLE prefix_counts;
            DROP TABLE prefix_blocks;
            DROP TABLE geo_permissions;
            DELETE FROM schema_migrations WHERE name LIKE 'fraud_%';
            """)
    }

    /// Each table's and index's name with its columns: what the schema is, whatever its SQL text.
    static func schema(_ path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path)
        defer { connection.close() }
        let objects = try connection.query("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
        return try objects.map { object in
            let name = try object.string("name")
            let pragma = try object.string("type") == "index" ? "index_info" : "table_info"
            let columns = try connection.query(SQL(stringLiteral: "SELECT name FROM pragma_\(pragma)('\(name)')")).map { try $0.string("name") }
            return "\(try object.string("type")) \(name)(\(columns.joined(separator: ",")))"
        }
    }

    @Test("keys, verifications and idempotency records of the previous schema open in default: the key reads its verification and replays its Idempotency-Key")
    func previousSchemaJoinsDefault() async throws {
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-previous-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: fresh + suffix) } }
        try Self.previous.migrate(try SQLiteConnection(path: fresh))

        try await TestApplication.test(.inProcess) { app, keyless in
            let store = try #require(app.store as? SQLiteVerificationStore)
            let key = try await KeyManager.open(store: store).create(name: "before").secret
            let client = keyless.bearer(key)
            let body: [String: Any] = ["phone_number": "+99012345670", "workflow": [["channel": "sms"]]]
            let started = try await client.post("/v1/verifications", json: body, headers: ["Idempotency-Key": "m-1"])
            let id = try #require(started.string("request_id"))

            try await app.restart {
                try Self.downgrade(app.databasePath)
                #expect(try Self.schema(app.databasePath) == Self.schema(fresh), "the database is in the previous schema")
            }

            let state = try await client.get("/v1/verifications/\(id)")
            #expect(state.status == 200)
            #expect(state.string("face") == "v1")
            let replay = try await client.post("/v1/verifications", json: body, headers: ["Idempotency-Key": "m-1"])
            #expect(replay.header("idempotent-replayed") == "true")
            #expect(replay.string("request_id") == id)
            let reopened = try #require(app.store as? SQLiteVerificationStore)
            #expect(try await reopened.verification(id: id)?.applicationId == Application.defaultID)
            #expect(try await reopened.keys().map(\.applicationId) == [Application.defaultID])
            #expect(try await reopened.applications().map(\.id).contains(Application.defaultID))
            #expect(try await keyless.get("/v1/verifications/\(id)").status == 404, "the dev application is not the default one")
        }
    }
}
