import Foundation
import Testing
import TacitServer
import TacitStore
import TacitTesting

/// The application's own defaults reach a Vonage face start as they reach a `/v1` one:
/// a field the body leaves out takes the application's setting, one it gives wins.
@Suite("Vonage face: application defaults", .timeLimit(.minutes(1)))
struct VonageFaceDefaultsTests {
    @Test("without code_length and channel_timeout a start takes the application's; given, the body's win")
    func defaultsFillWhatTheBodyLeavesOut() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let tenants = try await VonageFaceFixtures.make(app)
            let store = try vonageFixture(app.store as? any VerificationStore & KeyStore & ApplicationStore)
            var change = ApplicationChange()
            change.codeLength = 7
            change.channelTimeout = 420
            _ = try await ApplicationManager.open(store: store).set(id: tenants.a.id, change) { $0 }
            let vonage = try tenants.client(client, app: app)

            let filled = try #require(try await vonage.start("99012345672", ["sms"]).string("request_id"))
            let stored = try #require(try await app.store.verification(id: filled))
            #expect(stored.codeLength == 7 && stored.channelTimeout == 420 && stored.brand == "Acme")
            #expect(try await client.latestCode("+99012345672")?.count == 7)

            let given = try await vonage.start("99012345674", ["sms"], extra: ["code_length": 5, "channel_timeout": 60])
            let givenID = try #require(given.string("request_id"))
            let explicit = try #require(try await app.store.verification(id: givenID))
            #expect(explicit.codeLength == 5 && explicit.channelTimeout == 60)

            let other = try tenants.client(client, app: app, asB: true)
            let plain = try #require(try await other.start("99012345676", ["sms"]).string("request_id"))
            let untouched = try #require(try await app.store.verification(id: plain))
            #expect(untouched.codeLength == 4 && untouched.channelTimeout == 180)
        }
    }
}
