import Foundation
import TacitStore

/// Applications in the `applications` table and the faces' records in `face_credentials`, as
/// the SQLite store keeps them: secrets only as hashes or sealed, identifiers through a unique index.
extension PostgresVerificationStore: ApplicationStore {
    public func insertApplication(_ application: Application, credentials: [FaceCredential]) async throws {
        let settings = application.settings
        do {
            try await pool.transaction { db in
                try db.execute("""
                    INSERT INTO applications (id, name, created_at, revoked_at, brand, code_length, channel_timeout,
                        sms_app_hash, sms_origin, fraud_level)
                    VALUES (\(application.id), \(application.name), \(application.createdAt.timeIntervalSince1970),
                        \(application.revokedAt?.timeIntervalSince1970), \(settings.brand), \(settings.codeLength),
                        \(settings.channelTimeout), \(settings.smsAppHash), \(settings.smsOrigin),
                        \(settings.fraudLevel.rawValue))
                    """)
                for credential in credentials { try Self.upsert(credential, application: application.id, in: db) }
            }
        } catch let error as PostgresError where error.isUniqueViolation {
            throw StoreError(code: "duplicate_application", message: "an application with this id or credential exists")
        } catch let error as PostgresError {
            throw StoreError(error)
        }
    }

    public func ensureApplication(_ application: Application) async throws -> Application {
        try await read { db in
            try db.execute("""
                INSERT INTO applications (id, name, created_at)
                VALUES (\(application.id), \(application.name), \(application.createdAt.timeIntervalSince1970))
                ON CONFLICT (id) DO NOTHING
                """)
        }
        return try await self.application(id: application.id) ?? application
    }

    public func application(id: String) async throws -> Application? {
        try await read { db in try db.query("SELECT * FROM applications WHERE id = \(id)").first.map(Self.application) }
    }

    public func applicationSettings(id: String) async throws -> ApplicationSettings? {
        try await keptSettings.value(of: id) { try await application(id: id)?.settings }
    }

    public func applications() async throws -> [Application] {
        try await read { db in
            try db.query("SELECT * FROM applications ORDER BY created_at, id").map(Self.application)
        }
    }

    public func revokeApplication(id: String, at: Date) async throws -> Bool {
        defer { keptSettings.forget(id) }
        let time = at.timeIntervalSince1970
        return try await write { db in
            guard try db.execute(
                "UPDATE applications SET revoked_at = COALESCE(revoked_at, \(time)) WHERE id = \(id)") == 1 else {
                return false
            }
            try db.execute(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, \(time)) WHERE application_id = \(id)")
            return true
        }
    }

    public func updateApplication(id: String, settings: ApplicationSettings) async throws -> Bool {
        defer { keptSettings.forget(id) }
        return try await read { db in
            try db.execute("""
                UPDATE applications SET brand = \(settings.brand), code_length = \(settings.codeLength),
                    channel_timeout = \(settings.channelTimeout), sms_app_hash = \(settings.smsAppHash),
                    sms_origin = \(settings.smsOrigin), fraud_level = \(settings.fraudLevel.rawValue)
                WHERE id = \(id)
                """) == 1
        }
    }

    public func application(face: String, identifier name: String, value: String) async throws
        -> (Application, [FaceCredential])? {
        try await read { db in
            guard let row = try db.query("""
                SELECT a.* FROM face_credentials c JOIN applications a ON a.id = c.application_id
                WHERE c.face = \(face) AND c.name = \(name) AND c.text = \(value) AND c.kind = 'identifier'
                """).first else { return nil }
            let application = try Self.application(row)
            return (application, try Self.credentials(of: application.id, face: face, in: db))
        }
    }

    public func faceCredentials(application: String, face: String) async throws -> [FaceCredential] {
        try await read { db in try Self.credentials(of: application, face: face, in: db) }
    }

    public func setFaceCredentials(_ credentials: [FaceCredential], application: String) async throws -> Bool {
        do {
            return try await pool.transaction { db in
                guard try !db.query("SELECT 1 FROM applications WHERE id = \(application)").isEmpty else {
                    return false
                }
                for credential in credentials { try Self.upsert(credential, application: application, in: db) }
                return true
            }
        } catch let error as PostgresError where error.isUniqueViolation {
            throw StoreError(code: "duplicate_application", message: "another application has this credential")
        } catch let error as PostgresError {
            throw StoreError(error)
        }
    }

    public func pendingVerification(contact: String, application: String) async throws -> String? {
        let indexes = try protection().indexes(contact)
        return try await read { db in
            try db.query("\(Self.pending(of: application, under: indexes)) LIMIT 1").first?.string("id")
        }
    }

    static func application(_ row: PostgresRow) throws -> Application {
        let settings = ApplicationSettings(
            brand: try row.optionalString("brand"), codeLength: try row.optionalInt("code_length"),
            channelTimeout: try row.optionalInt("channel_timeout"), smsAppHash: try row.optionalString("sms_app_hash"),
            smsOrigin: try row.optionalString("sms_origin"),
            fraudLevel: FraudLevel(rawValue: try row.optionalString("fraud_level") ?? "") ?? .basic)
        return Application(id: try row.string("id"), name: try row.string("name"),
                           createdAt: try row.date("created_at"),
                           revokedAt: try row.optionalDate("revoked_at"), settings: settings)
    }

    static func upsert(_ credential: FaceCredential, application: String, in db: PostgresConnection) throws {
        try db.execute("""
            INSERT INTO face_credentials (application_id, face, name, kind, text, bytes)
            VALUES (\(application), \(credential.face), \(credential.name), \(credential.kind.rawValue),
                \(credential.text), \(credential.bytes))
            ON CONFLICT (application_id, face, name) DO UPDATE SET kind = excluded.kind, text = excluded.text,
                bytes = excluded.bytes
            """)
    }

    static func credentials(of application: String, face: String,
                            in db: PostgresConnection) throws -> [FaceCredential] {
        try db.query("""
            SELECT name, kind, text, bytes FROM face_credentials
            WHERE application_id = \(application) AND face = \(face) ORDER BY name
            """).map { row in
            FaceCredential(face: face, name: try row.string("name"),
                           kind: FaceCredential.Kind(rawValue: try row.string("kind")) ?? .setting,
                           text: try row.optionalString("text"), bytes: try row.optionalBytes("bytes"))
        }
    }
}
