import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitStoreSQLite
import TacitTesting

/// A database from before keys left it: its master secret in the settings table, its
/// numbers sealed without a key id. The first start moves the secret to the key file.
@Suite("The master secret moves out of the database", .timeLimit(.minutes(1)))
struct KeyMigrationTests {
    /// Seals as the server did before sealed fields named their key: AES-GCM under the
    /// master secret's `seal` key, indexed under its `index` key.
    struct LegacyFields: FieldProtection {
        let cipher: AESGCM
        let indexKey: [UInt8]

        init(master: [UInt8]) {
            cipher = AESGCM(key: HMAC.sha256(key: master, message: Array("tacit:seal".utf8)))
            indexKey = HMAC.sha256(key: master, message: Array("tacit:index".utf8))
        }

        func seal(_ plaintext: [UInt8]) throws -> [UInt8] { try cipher.seal(plaintext) }
        func open(_ sealed: [UInt8]) throws -> [UInt8] { try cipher.open(sealed) }
        func index(_ value: String) throws -> String { Hex.encode(HMAC.sha256(key: indexKey, message: Array(value.utf8))) }
    }

    /// A database as an earlier version left it, holding one verification of `number`.
    static func legacyDatabase(_ db: String, master: [UInt8], number: String) async throws -> String {
        let store = try SQLiteVerificationStore(path: db)
        try await store.migrate()
        _ = try await store.setSettingIfAbsent("master_secret", master)
        store.protect(with: LegacyFields(master: master))
        let verification = Verification(id: "vf_legacy0000000000000001", phoneNumber: number, options: VerificationOptions(workflow: [.sms]),
                                        clientTokenHash: Array(repeating: 1, count: 32), createdAt: Date())
        _ = try await store.insert(verification, events: [], at: Date(), idempotency: nil)
        return verification.id
    }

    @Test("the first start moves the master_secret row to a 0600 key file and deletes it; what it sealed still opens")
    func migratesTheRow() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let master = SecureRandom.bytes(32)
        let id = try await Self.legacyDatabase(db, master: master, number: "+99012345686")
        // The verification belongs to the default application, as everything made before
        // applications does: it is read with a key of that application, not as `dev`.
        let key = try await KeyManager.open(store: try SQLiteVerificationStore(path: db)).create(name: "legacy").secret

        try await TestApplication.test(.inProcess, configure: { configuration, _ in configuration.databasePath = db }) { _, keyless in
            let client = keyless.bearer(key)
            let state = try await client.get("/v1/verifications/\(id)")
            #expect(state.status == 200)
            let started = try await client.start("+99012345686", channels: ["sms"])
            #expect(started.reply.status == 409, "the pending verification sealed before still holds the number")
        }
        let connection = try SQLiteConnection(path: db)
        defer { connection.close() }
        #expect(try connection.query("SELECT name FROM settings WHERE name = 'master_secret'").isEmpty)
        #expect(try StoredFiles.keys(in: db + ".key") == [master])
        #expect(try StoredFiles.mode(db + ".key") == 0o600)
        #expect(!(try StoredFiles.storedValues(db)).contains { $0.contains(bytes: master) })
    }
}
