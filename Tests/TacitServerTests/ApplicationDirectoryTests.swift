import Foundation
import Testing
import TacitCore
import TacitServer
import TacitStore
import TacitStoreSQLite
import TacitTesting

/// The lookup the drop-in faces use: by Vonage application_id, by Vonage api_key and
/// api_secret, by Twilio account_sid and auth_token (and service_sid), on both stores.
@Suite("Application lookup for the drop-in faces")
struct ApplicationDirectoryTests {
    /// A store of `kind`; a SQLite one lives in `directory`, which the caller removes.
    static func store(_ kind: String, in directory: URL) throws -> any VerificationStore & KeyStore & ApplicationStore {
        if kind == "memory" { return InMemoryStore() }
        return try SQLiteVerificationStore(path: directory.appendingPathComponent("tacit.db").path)
    }

    @Test("each credential finds its application; a wrong secret, another app's service or an unknown id finds none", arguments: ["memory", "sqlite"])
    func lookups(kind: String) async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(kind, in: directory)
        let manager = try await ApplicationManager.open(store: store)
        let (shop, issued) = try await manager.create(name: "Shop")
        let (other, otherIssued) = try await manager.create(name: "Other")
        let lookup = ApplicationDirectory(store: store)

        #expect(try await Self.byApplicationId(lookup, issued.vonageApplicationId) == shop.id)
        #expect(try await Self.vonage(lookup, issued.vonageAPIKey, issued.vonageAPISecret) == shop.id)
        let found = try await Self.twilio(lookup, issued.twilioAccountSid, issued.twilioAuthToken)
        #expect(found?.0.id == shop.id && found?.1.named("service_sid")?.text == issued.twilioServiceSid)
        #expect(try await Self.twilio(lookup, otherIssued.twilioAccountSid, otherIssued.twilioAuthToken)?.0.id == other.id)

        #expect(try await Self.vonage(lookup, issued.vonageAPIKey, otherIssued.vonageAPISecret) == nil)
        #expect(try await Self.vonage(lookup, "00000000", issued.vonageAPISecret) == nil)
        #expect(try await Self.byApplicationId(lookup, "00000000-0000-4000-8000-000000000000") == nil)
        #expect(try await Self.twilio(lookup, issued.twilioAccountSid, otherIssued.twilioAuthToken) == nil)
        #expect(found?.1.named("service_sid")?.text != otherIssued.twilioServiceSid)
    }

    /// The application a Vonage JWT's `application_id` names.
    static func byApplicationId(_ lookup: ApplicationDirectory, _ id: String) async throws -> String? {
        try await lookup.application(face: "vonage", identifier: "application_id", value: id)?.0.id
    }

    /// The application whose Vonage `api_key` and `api_secret` these are.
    static func vonage(_ lookup: ApplicationDirectory, _ key: String, _ secret: String) async throws -> String? {
        try await lookup.application(face: "vonage", identifier: "api_key", value: key, secret: secret,
                                     secretName: "api_secret", purpose: "vonage-api-secret")?.0.id
    }

    /// The application, and its records, whose Twilio `account_sid` and `auth_token` these are.
    static func twilio(_ lookup: ApplicationDirectory, _ sid: String, _ token: String) async throws
        -> (Application, [FaceCredential])? {
        try await lookup.application(face: "twilio", identifier: "account_sid", value: sid, secret: token,
                                     secretName: "auth_token", purpose: "twilio-auth-token")
    }

    @Test("an application's pending verification of a number is found by number, and another application's is not", arguments: ["memory", "sqlite"])
    func pendingByNumber(kind: String) async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(kind, in: directory)
        try await store.migrate()
        store.protect(with: ServerSecrets(master: Array(repeating: 3, count: 32)).fieldProtection)
        let state = VerificationState(status: .pending, currentStep: 0, deadline: Date().addingTimeInterval(60),
                                      codeHash: nil, codeStep: nil)
        var verification = Verification(id: "vf_shop", phoneNumber: "+99012345670", options: VerificationOptions(workflow: [.sms]),
                                        clientTokenHash: [], createdAt: Date(), state: state)
        verification.applicationId = "app_shop"
        _ = try await store.insert(verification, events: [], at: Date(), idempotency: nil)
        #expect(try await store.pendingVerification(contact: "+99012345670", application: "app_shop") == "vf_shop")
        #expect(try await store.pendingVerification(contact: "+99012345670", application: "app_other") == nil)
        #expect(try await store.pendingVerification(contact: "+99012345672", application: "app_shop") == nil)
    }

    @Test("a revoked application is found by no credential", arguments: ["memory", "sqlite"])
    func revoked(kind: String) async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.store(kind, in: directory)
        let manager = try await ApplicationManager.open(store: store)
        let (shop, issued) = try await manager.create(name: "Shop")
        #expect(try await manager.revoke(id: shop.id))
        let lookup = ApplicationDirectory(store: store)
        #expect(try await Self.byApplicationId(lookup, issued.vonageApplicationId) == nil)
        #expect(try await Self.vonage(lookup, issued.vonageAPIKey, issued.vonageAPISecret) == nil)
        #expect(try await Self.twilio(lookup, issued.twilioAccountSid, issued.twilioAuthToken) == nil)
        #expect(try await store.keys().filter { $0.applicationId == shop.id }.allSatisfy(\.isRevoked))
    }
}
