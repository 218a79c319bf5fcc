import Foundation
import Testing
import TacitCore
import TacitServer
import TacitStore
import TacitStoreSQLite
import TacitTesting

/// An application's settings are the defaults of its starts, and every verification
/// records the face that started it.
@Suite("Application settings and faces", .timeLimit(.minutes(1)))
struct ApplicationSettingsTests {
    static func manager(_ app: TestApplication) async throws -> ApplicationManager {
        try await ApplicationManager.open(store: try #require(app.store as? SQLiteVerificationStore))
    }

    @Test("brand, code length and channel timeout set for an application shape its starts; a field the body gives wins")
    func settingsAreStartDefaults() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let manager = try await Self.manager(app)
            let (application, credentials) = try await manager.create(name: "Shop")
            var change = ApplicationChange()
            change.brand = "ShopCo"
            change.codeLength = 8
            change.channelTimeout = 120
            _ = try await manager.set(id: application.id, change)
            let client = keyless.bearer(credentials.apiKey)

            let started = try await client.start("+99012345678", channels: ["sms"])
            #expect(started.reply.status == 202)
            let code = try #require(try await keyless.latestCode("+99012345678"))
            #expect(code.count == 8)
            let inbox = try await keyless.get("/v1/dev/handsets/%2B99012345678/inbox")
            #expect(((inbox["messages"] as? [[String: Any]])?.last?["body"] as? String)?.contains("ShopCo") == true)
            let expires = try #require(started.reply.string("expires_at").flatMap(Timestamp.parse))
            #expect(abs(expires.timeIntervalSince(app.clock.now()) - 120) < 1)

            let given = try await client.start("+99012345680", channels: ["sms"], extra: ["code_length": 5, "brand": "Other"])
            #expect(given.reply.status == 202)
            #expect(try await keyless.latestCode("+99012345680")?.count == 5)
        }
    }

    @Test("a change of the settings through this server shows in the very next start, though starts read them from a kept copy")
    func changeShowsAtOnce() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let manager = try await Self.manager(app)
            let (application, credentials) = try await manager.create(name: "Shop")
            let client = keyless.bearer(credentials.apiKey)
            #expect(try await client.start("+99012345684", channels: ["sms"]).reply.status == 202)
            #expect(try await keyless.latestCode("+99012345684")?.count == 6)
            var change = ApplicationChange()
            change.codeLength = 9
            _ = try await manager.set(id: application.id, change)
            #expect(try await client.start("+99012345686", channels: ["sms"]).reply.status == 202)
            #expect(try await keyless.latestCode("+99012345686")?.count == 9)
        }
    }

    @Test("a start through /v1 shows face v1 in its state and on its api:create event")
    func faceIsRecorded() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let started = try await client.start("+99012345682", channels: ["sms"])
            #expect(started.reply.string("face") == "v1")
            #expect(try await client.get("/v1/verifications/\(started.id)").string("face") == "v1")
            let events = try await client.get("/v1/verifications/\(started.id)/events")["events"] as? [[String: Any]]
            let created = try #require(events?.first)
            #expect(created["label"] as? String == "api:create")
            #expect((created["data"] as? [String: Any])?["face"] as? String == "v1")
            #expect(try await app.store.verification(id: started.id)?.face == Verification.v1Face)
            #expect(try await app.store.verification(id: started.id)?.applicationId == Application.devID)
        }
    }

    @Test("the Vonage signature secret is stored sealed and opens to itself; the public key must be PEM")
    func signatureSecretSealed() async throws {
        try await TestApplication.test(.inProcess) { app, _ in
            let manager = try await Self.manager(app)
            let (application, _) = try await manager.create(name: "Shop")
            let secrets = ServerSecrets(master: Array(repeating: 9, count: 32))
            var change = ApplicationChange()
            change.faceSettings["vonage-signature-secret"] = String(repeating: "s3cret", count: 8)
            _ = try #require(try await manager.set(id: application.id, change) { try secrets.fieldProtection.seal($0) })
            let records = try await manager.faceRecords(of: application.id, face: "vonage")
            let sealed = try #require(records.named("signature_secret")?.bytes)
            #expect(records.named("signature_secret")?.kind == .sealedSecret)
            #expect(!sealed.contains(bytes: Array("s3crets3cret".utf8)))
            #expect(try secrets.fieldProtection.open(sealed) == Array(change.faceSettings["vonage-signature-secret"]!.utf8))

            var bad = ApplicationChange()
            bad.faceSettings["vonage-public-key"] = "not a key"
            await #expect(throws: ApplicationManager.Failure.self) { _ = try await manager.set(id: application.id, bad) }
            await #expect(throws: ApplicationManager.Failure.self) { _ = try await manager.set(id: application.id, change) }
        }
    }
}

extension VerificationStore {
    /// The stored settings of an application, through the store's application side.
    func applicationSettings(_ id: String) async throws -> ApplicationSettings? {
        try await (self as? any ApplicationStore)?.application(id: id)?.settings
    }
}
