import Foundation
import TacitStore

/// Applications in the `applications` table, and what the drop-in faces keep for them in
/// `face_credentials`: secrets only as hashes or sealed, identifiers found through a unique index.
extension SQLiteVerificationStore: ApplicationStore {
    public func insertApplication(_ application: Application, credentials: [FaceCredential]) async throws {
        let settings = application.settings
        try await database.write { db in
            do {
                try db.execute("""
                    INSERT INTO applications (id, name, created_at, revoked_at, brand, code_length, channel_timeout,
                        sms_app_hash, sms_origin, fraud_level)
                    VALUES (\(application.id), \(application.name), \(application.createdAt.timeIntervalSince1970),
                        \(application.revokedAt?.timeIntervalSince1970), \(settings.brand), \(settings.codeLength),
                        \(settings.channelTimeout), \(settings.smsAppHash), \(settings.smsOrigin),
                        \(settings.fraudLevel.rawValue))
                    """)
                for credential in credentials { try Self.upsert(credential, application: application.id, in: db) }
            } catch let error as SQLiteError where error.isConstraintViolation {
                throw StoreError(code: "duplicate_application",
                                 message: "an application with this id or credential exists")
            }
        }
    }

    public func ensureApplication(_ application: Application) async throws -> Application {
        try await database.write { db in
            try db.execute("""
                INSERT OR IGNORE INTO applications (id, name, created_at)
                VALUES (\(application.id), \(application.name), \(application.createdAt.timeIntervalSince1970))
                """)
        }
        return try await self.application(id: application.id) ?? application
    }

    public func application(id: String) async throws -> Application? {
        let rows = try await database.read { db in try db.query("SELECT * FROM applications WHERE id = \(id)") }
        return try rows.first.map(Self.application)
    }

    public func applicationSettings(id: String) async throws -> ApplicationSettings? {
        try await keptSettings.value(of: id) { try await application(id: id)?.settings }
    }

    public func applications() async throws -> [Application] {
        let rows = try await database.read { db in try db.query("SELECT * FROM applications ORDER BY created_at, id") }
        return try rows.map(Self.application)
    }

    public func revokeApplication(id: String, at: Date) async throws -> Bool {
        defer { keptSettings.forget(id) }
        let time = at.timeIntervalSince1970
        return try await database.write { db in
            try db.execute("UPDATE applications SET revoked_at = COALESCE(revoked_at, \(time)) WHERE id = \(id)")
            guard db.changes == 1 else { return false }
            try db.execute(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, \(time)) WHERE application_id = \(id)")
            return true
        }
    }

    public func updateApplication(id: String, settings: ApplicationSettings) async throws -> Bool {
        defer { keptSettings.forget(id) }
        return try await database.write { db in
            try db.execute("""
                UPDATE applications SET brand = \(settings.brand), code_length = \(settings.codeLength),
                    channel_timeout = \(settings.channelTimeout), sms_app_hash = \(settings.smsAppHash),
                    sms_origin = \(settings.smsOrigin), fraud_level = \(settings.fraudLevel.rawValue)
                WHERE id = \(id)
                """)
            return db.changes == 1
        }
    }

    public func application(face: String, identifier name: String, value: String) async throws
        -> (Application, [FaceCredential])? {
        try await database.read { db in
            let rows = try db.query("""
                SELECT application_id FROM face_credentials
                WHERE face = \(face) AND name = \(name) AND text = \(value) AND kind = 'identifier'
                """)
            guard let id = try rows.first?.string("application_id"),
                  let row = try db.query("SELECT * FROM applications WHERE id = \(id)").first else { return nil }
            return (try Self.application(row), try Self.credentials(of: id, face: face, in: db))
        }
    }

    public func faceCredentials(application: String, face: String) async throws -> [FaceCredential] {
        try await database.read { db in try Self.credentials(of: application, face: face, in: db) }
    }

    public func setFaceCredentials(_ credentials: [FaceCredential], application: String) async throws -> Bool {
        try await database.write { db in
            guard try !db.query("SELECT 1 FROM applications WHERE id = \(application)").isEmpty else { return false }
            do {
                for credential in credentials { try Self.upsert(credential, application: application, in: db) }
            } catch let error as SQLiteError where error.isConstraintViolation {
                throw StoreError(code: "duplicate_application", message: "another application has this credential")
            }
            return true
        }
    }

    /// The contact's newest row of the application, as the insert's one-pending check reads it.
    public func pendingVerification(contact: String, application: String) async throws -> String? {
        let indexes = try protection.get().indexes(contact)
        let rows = try await database.read { db in
            try db.query("""
                SELECT id, status FROM verifications
                WHERE phone_index IN (\(list: indexes)) AND application_id = \(application)
                ORDER BY rowid DESC LIMIT 1
                """)
        }
        guard let row = rows.first, try row.string("status") == "pending" else { return nil }
        return try row.string("id")
    }

    static func application(_ row: Row) throws -> Application {
        let settings = ApplicationSettings(
            brand: try row.optionalString("brand"), codeLength: try row.optionalInt("code_length"),
            channelTimeout: try row.optionalInt("channel_timeout"), smsAppHash: try row.optionalString("sms_app_hash"),
            smsOrigin: try row.optionalString("sms_origin"),
            fraudLevel: FraudLevel(rawValue: try row.optionalString("fraud_level") ?? "") ?? .basic)
        return Application(id: try row.string("id"), name: try row.string("name"),
                           createdAt: Date(timeIntervalSince1970: try row.double("created_at")),
                           revokedAt: try row.optionalDouble("revoked_at").map(Date.init(timeIntervalSince1970:)),
                           settings: settings)
    }

    static func upsert(_ credential: FaceCredential, application: String, in db: SQLiteConnection) throws {
        try db.execute("""
            INSERT INTO face_credentials (application_id, face, name, kind, text, bytes)
            VALUES (\(application), \(credential.face), \(credential.name), \(credential.kind.rawValue),
                \(credential.text), \(credential.bytes))
            ON CONFLICT (application_id, face, name) DO UPDATE SET kind = excluded.kind, text = excluded.text,
                bytes = excluded.bytes
            """)
    }

    static func credentials(of application: String, face: String, in db: SQLiteConnection) throws -> [FaceCredential] {
        try db.query("""
            SELECT name, kind, text, bytes FROM face_credentials
            WHERE application_id = \(application) AND face = \(face) ORDER BY name
            """).map { row in
            FaceCredential(face: face, name: try row.string("name"),
                           kind: FaceCredential.Kind(rawValue: try row.string("kind")) ?? .setting,
                           text: try row.optionalString("text"), bytes: try row.optionalBlob("bytes"))
        }
    }
}
