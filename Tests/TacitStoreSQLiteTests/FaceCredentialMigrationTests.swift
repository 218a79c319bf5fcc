import Foundation
import Testing
import TacitStore
import TacitStoreSQLite

/// The faces' old columns of `applications` become their records (`faces_001_face_credentials`).
@Suite("Face records across faces_001")
struct FaceCredentialMigrationTests {
    @Test("an application's face columns become face records of the right kinds, found by identifier; the columns are gone")
    func columnsBecomeRecords() async throws {
        let file = try TemporaryDatabase()
        do {
            let connection = try SQLiteConnection(path: file.path)
            let before = SQLiteSchema.migrator.migrations.prefix { $0.name != "faces_001_face_credentials" }
            try Migrator(Array(before)).migrate(connection)
            try connection.execute("""
                INSERT INTO applications (id, name, created_at, brand, vonage_callback_url, vonage_signature_secret,
                    vonage_public_key, vonage_application_id, vonage_api_key, vonage_api_secret_hash,
                    twilio_account_sid, twilio_auth_token_hash, twilio_service_sid)
                VALUES ('app_1', 'Shop', 1, 'Acme', 'https://127.0.0.1/cb', X'0102', 'PEM', 'uuid-1', 'key1', X'0a0b',
                    'AC1', X'0c0d', 'VA1')
                """)
            connection.close()
        }
        let store = try SQLiteVerificationStore(path: file.path)
        try await store.migrate()
        let (application, vonage) = try #require(try await store.application(face: "vonage", identifier: "api_key",
                                                                          value: "key1"))
        #expect(application.id == "app_1" && application.settings.brand == "Acme")
        #expect(vonage.named("application_id") == FaceCredential(face: "vonage", name: "application_id",
                                                                 kind: .identifier, text: "uuid-1"))
        #expect(vonage.named("api_secret")?.kind == .secretHash && vonage.named("api_secret")?.bytes == [10, 11])
        #expect(vonage.named("signature_secret")?.kind == .sealedSecret && vonage.named("signature_secret")?.bytes == [1, 2])
        #expect(vonage.named("callback_url")?.text == "https://127.0.0.1/cb" && vonage.named("public_key")?.text == "PEM")
        let twilio = try await store.faceCredentials(application: "app_1", face: "twilio")
        #expect(twilio.map(\.name) == ["account_sid", "auth_token", "service_sid"])
        #expect(try await store.application(face: "twilio", identifier: "service_sid", value: "VA1")?.0.id == "app_1")
        #expect(try await store.faceCredentials(application: Application.defaultID, face: "vonage").isEmpty)

        let connection = try SQLiteConnection(path: file.path)
        defer { connection.close() }
        let columns = try connection.query("SELECT name FROM pragma_table_info('applications')").map { try $0.string("name") }
        // The faces' columns are gone; the SMS app hash and origin come after, with templates_001, then the fraud level.
        #expect(columns == ["id", "name", "created_at", "revoked_at", "brand", "code_length", "channel_timeout",
                            "sms_app_hash", "sms_origin", "fraud_level"])
    }

    @Test("an identifier is one application's: another application taking it is refused and changes nothing")
    func identifiersAreUnique() async throws {
        let file = try TemporaryDatabase()
        let store = try SQLiteVerificationStore(path: file.path)
        try await store.migrate()
        let record = FaceCredential(face: "vonage", name: "api_key", kind: .identifier, text: "key1")
        try await store.insertApplication(Application(id: "app_1", name: "One", createdAt: Date()), credentials: [record])
        await #expect(throws: StoreError.self) {
            try await store.insertApplication(Application(id: "app_2", name: "Two", createdAt: Date()), credentials: [record])
        }
        #expect(try await store.application(id: "app_2") == nil)
        #expect(try await store.setFaceCredentials([record], application: "app_1"))
        #expect(try await !store.setFaceCredentials([record], application: "app_none"))
    }
}
