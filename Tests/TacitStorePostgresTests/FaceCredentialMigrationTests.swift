import Foundation
import Testing
import TacitStore
import TacitStorePostgres
import TacitTesting

/// The faces' old columns of `applications` become their records on PostgreSQL too.
@Suite("PostgreSQL face records across faces_001", .enabled(if: PostgresCluster.enabled))
struct FaceCredentialMigrationTests {
    @Test("an application's face columns become face records of the right kinds, found by identifier; the columns are gone")
    func columnsBecomeRecords() async throws {
        let url = try await PostgresCluster.shared().makeDatabase()
        let pool = PostgresPool(conninfo: url, size: 1)
        try await pool.withConnection { db in
            let before = PostgresSchema.migrator.migrations.prefix { $0.name != "faces_001_face_credentials" }
            _ = try PostgresMigrator(Array(before)).migrate(db)
            try db.execute("""
                INSERT INTO applications (id, name, created_at, vonage_signature_secret, vonage_application_id,
                    vonage_api_key, vonage_api_secret_hash, twilio_account_sid, twilio_auth_token_hash, twilio_service_sid)
                VALUES ('app_1', 'Shop', 1, '\\x0102', 'uuid-1', 'key1', '\\x0a0b', 'AC1', '\\x0c0d', 'VA1')
                """)
        }
        let store = PostgresVerificationStore(url: url, poolSize: 1)
        try await store.migrate()
        let (application, vonage) = try #require(try await store.application(face: "vonage", identifier: "api_key",
                                                                          value: "key1"))
        #expect(application.id == "app_1")
        #expect(vonage.map(\.name) == ["api_key", "api_secret", "application_id", "signature_secret"])
        #expect(vonage.named("api_secret")?.kind == .secretHash && vonage.named("api_secret")?.bytes == [10, 11])
        #expect(vonage.named("signature_secret")?.kind == .sealedSecret && vonage.named("signature_secret")?.bytes == [1, 2])
        #expect(try await store.application(face: "twilio", identifier: "account_sid", value: "AC1")?.0.id == "app_1")
        let columns = try await pool.withConnection { db in
            try db.query("SELECT column_name FROM information_schema.columns WHERE table_name = 'applications'")
                .map { try $0.string("column_name") }
        }
        #expect(!columns.contains { $0.contains("_api_") || $0.hasSuffix("_sid") })
        // Its own seven, the SMS app hash and origin templates_001 adds after, and the fraud level.
        #expect(columns.count == 10)
    }
}
