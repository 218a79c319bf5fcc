import Foundation
import TacitStore

/// Applications in the `applications` table: settings and drop-in credentials in one row,
/// the secrets only as hashes, looked up through the unique indexes on their public ids.
extension SQLiteVerificationStore: ApplicationStore {
    public func insertApplication(_ application: Application, credentials: ApplicationCredentials?) async throws {
        let settings = application.settings
        try await database.write { db in
            do {
                try db.execute("""
                    INSERT INTO applications (id, name, created_at, revoked_at, brand, code_length, channel_timeout,
                        vonage_callback_url, vonage_signature_secret, vonage_public_key, vonage_application_id, vonage_api_key,
                        vonage_api_secret_hash, twilio_account_sid, twilio_auth_token_hash, twilio_service_sid)
                    VALUES (\(application.id), \(application.name), \(application.createdAt.timeIntervalSince1970),
                        \(application.revokedAt?.timeIntervalSince1970), \(settings.brand), \(settings.codeLength), \(settings.channelTimeout),
                        \(settings.vonageCallbackURL), \(settings.vonageSignatureSecretSealed), \(settings.vonagePublicKeyPEM),
                        \(credentials?.vonageApplicationId), \(credentials?.vonageAPIKey), \(credentials?.vonageAPISecretHash),
                        \(credentials?.twilioAccountSid), \(credentials?.twilioAuthTokenHash), \(credentials?.twilioServiceSid))
                    """)
            } catch let error as SQLiteError where error.isConstraintViolation {
                throw StoreError(code: "duplicate_application", message: "an application with this id or credential exists")
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
        try await keptSettings.settings(of: id) { try await application(id: id)?.settings }
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
            try db.execute("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, \(time)) WHERE application_id = \(id)")
            return true
        }
    }

    public func updateApplication(id: String, settings: ApplicationSettings) async throws -> Bool {
        defer { keptSettings.forget(id) }
        return try await database.write { db in
            try db.execute("""
                UPDATE applications SET brand = \(settings.brand), code_length = \(settings.codeLength),
                    channel_timeout = \(settings.channelTimeout), vonage_callback_url = \(settings.vonageCallbackURL),
                    vonage_signature_secret = \(settings.vonageSignatureSecretSealed), vonage_public_key = \(settings.vonagePublicKeyPEM)
                WHERE id = \(id)
                """)
            return db.changes == 1
        }
    }

    public func application(matching lookup: CredentialLookup) async throws -> (Application, ApplicationCredentials)? {
        let rows = try await database.read { db in
            switch lookup {
            case .vonageApplication(let id): try db.query("SELECT * FROM applications WHERE vonage_application_id = \(id)")
            case .vonageAPIKey(let key): try db.query("SELECT * FROM applications WHERE vonage_api_key = \(key)")
            case .twilioAccount(let sid): try db.query("SELECT * FROM applications WHERE twilio_account_sid = \(sid)")
            }
        }
        guard let row = rows.first, let credentials = try Self.credentials(row) else { return nil }
        return (try Self.application(row), credentials)
    }

    /// The number's newest row of the application, as the insert's one-pending check reads it.
    public func pendingVerification(phoneNumber: String, application: String) async throws -> String? {
        let indexes = try protection.get().indexes(phoneNumber)
        let rows = try await database.read { db in
            try db.query("""
                SELECT id, status FROM verifications WHERE phone_index IN (\(list: indexes)) AND application_id = \(application)
                ORDER BY rowid DESC LIMIT 1
                """)
        }
        guard let row = rows.first, try row.string("status") == "pending" else { return nil }
        return try row.string("id")
    }

    static func application(_ row: Row) throws -> Application {
        let settings = ApplicationSettings(
            brand: try row.optionalString("brand"), codeLength: try row.optionalInt("code_length"),
            channelTimeout: try row.optionalInt("channel_timeout"), vonageCallbackURL: try row.optionalString("vonage_callback_url"),
            vonageSignatureSecretSealed: try row.optionalBlob("vonage_signature_secret"),
            vonagePublicKeyPEM: try row.optionalString("vonage_public_key"))
        return Application(id: try row.string("id"), name: try row.string("name"),
                           createdAt: Date(timeIntervalSince1970: try row.double("created_at")),
                           revokedAt: try row.optionalDouble("revoked_at").map(Date.init(timeIntervalSince1970:)), settings: settings)
    }

    static func credentials(_ row: Row) throws -> ApplicationCredentials? {
        guard let applicationId = try row.optionalString("vonage_application_id"), let apiKey = try row.optionalString("vonage_api_key"),
              let secret = try row.optionalBlob("vonage_api_secret_hash"), let account = try row.optionalString("twilio_account_sid"),
              let token = try row.optionalBlob("twilio_auth_token_hash"), let service = try row.optionalString("twilio_service_sid")
        else { return nil }
        return ApplicationCredentials(vonageApplicationId: applicationId, vonageAPIKey: apiKey, vonageAPISecretHash: secret,
                                      twilioAccountSid: account, twilioAuthTokenHash: token, twilioServiceSid: service)
    }
}
