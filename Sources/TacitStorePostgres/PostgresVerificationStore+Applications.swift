import Foundation
import TacitStore

/// Applications in the `applications` table, as the SQLite store keeps them: settings and
/// drop-in credentials in one row, the secrets only as hashes, found through unique indexes.
extension PostgresVerificationStore: ApplicationStore {
    public func insertApplication(_ application: Application, credentials: ApplicationCredentials?) async throws {
        let settings = application.settings
        do {
            try await pool.withConnection { db in
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
        try await keptSettings.settings(of: id) { try await application(id: id)?.settings }
    }

    public func applications() async throws -> [Application] {
        try await read { db in try db.query("SELECT * FROM applications ORDER BY created_at, id").map(Self.application) }
    }

    public func revokeApplication(id: String, at: Date) async throws -> Bool {
        defer { keptSettings.forget(id) }
        let time = at.timeIntervalSince1970
        return try await write { db in
            guard try db.execute("UPDATE applications SET revoked_at = COALESCE(revoked_at, \(time)) WHERE id = \(id)") == 1 else {
                return false
            }
            try db.execute("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, \(time)) WHERE application_id = \(id)")
            return true
        }
    }

    public func updateApplication(id: String, settings: ApplicationSettings) async throws -> Bool {
        defer { keptSettings.forget(id) }
        return try await read { db in
            try db.execute("""
                UPDATE applications SET brand = \(settings.brand), code_length = \(settings.codeLength),
                    channel_timeout = \(settings.channelTimeout), vonage_callback_url = \(settings.vonageCallbackURL),
                    vonage_signature_secret = \(settings.vonageSignatureSecretSealed), vonage_public_key = \(settings.vonagePublicKeyPEM)
                WHERE id = \(id)
                """) == 1
        }
    }

    public func application(matching lookup: CredentialLookup) async throws -> (Application, ApplicationCredentials)? {
        let rows = try await read { db in
            switch lookup {
            case .vonageApplication(let id): try db.query("SELECT * FROM applications WHERE vonage_application_id = \(id)")
            case .vonageAPIKey(let key): try db.query("SELECT * FROM applications WHERE vonage_api_key = \(key)")
            case .twilioAccount(let sid): try db.query("SELECT * FROM applications WHERE twilio_account_sid = \(sid)")
            }
        }
        guard let row = rows.first, let credentials = try Self.credentials(row) else { return nil }
        return (try Self.application(row), credentials)
    }

    public func pendingVerification(phoneNumber: String, application: String) async throws -> String? {
        let indexes = try protection().indexes(phoneNumber)
        return try await read { db in
            try db.query("\(Self.pending(of: application, under: indexes)) LIMIT 1").first?.string("id")
        }
    }

    static func application(_ row: PostgresRow) throws -> Application {
        let settings = ApplicationSettings(
            brand: try row.optionalString("brand"), codeLength: try row.optionalInt("code_length"),
            channelTimeout: try row.optionalInt("channel_timeout"), vonageCallbackURL: try row.optionalString("vonage_callback_url"),
            vonageSignatureSecretSealed: try row.optionalBytes("vonage_signature_secret"),
            vonagePublicKeyPEM: try row.optionalString("vonage_public_key"))
        return Application(id: try row.string("id"), name: try row.string("name"), createdAt: try row.date("created_at"),
                           revokedAt: try row.optionalDate("revoked_at"), settings: settings)
    }

    static func credentials(_ row: PostgresRow) throws -> ApplicationCredentials? {
        guard let applicationId = try row.optionalString("vonage_application_id"), let apiKey = try row.optionalString("vonage_api_key"),
              let secret = try row.optionalBytes("vonage_api_secret_hash"), let account = try row.optionalString("twilio_account_sid"),
              let token = try row.optionalBytes("twilio_auth_token_hash"), let service = try row.optionalString("twilio_service_sid")
        else { return nil }
        return ApplicationCredentials(vonageApplicationId: applicationId, vonageAPIKey: apiKey, vonageAPISecretHash: secret,
                                      twilioAccountSid: account, twilioAuthTokenHash: token, twilioServiceSid: service)
    }
}
