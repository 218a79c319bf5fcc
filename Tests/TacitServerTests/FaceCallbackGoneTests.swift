import Foundation
import Testing
import TacitCore
@testable import TacitServer
import TacitStore
import TacitTesting

/// A 410 from an application's Vonage callback URL settles that application's callbacks
/// and no one else's, and no outbox row, face callback or webhook, stays pending for ever.
@Suite("Face callbacks: 410 and bounded outbox rows", .timeLimit(.minutes(1)))
struct FaceCallbackGoneTests {
    /// Gives application `id` a Vonage callback URL at `path` on the test's recording client.
    func setCallback(_ app: TestApplication, _ id: String, path: String) async throws {
        let store = try vonageFixture(app.store as? any VerificationStore & KeyStore & ApplicationStore)
        let secrets = try await ServerSecrets.load(configuration: app.configuration, store: store)
        var change = ApplicationChange()
        change.faceSettings["vonage-callback-url"] = "http://127.0.0.1:9" + path
        change.faceSettings["vonage-signature-secret"] = String(repeating: "k", count: 40)
        _ = try await ApplicationManager.open(store: store).set(id: id, change) { try secrets.fieldProtection.seal($0) }
    }

    func complete(_ vonage: VonageClient, _ client: TestClient, _ number: String) async throws -> String {
        let id = try #require(try await vonage.start(number, ["sms"]).string("request_id"))
        let code = try #require(try await client.latestCode("+" + number))
        #expect(try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": code]).status == 200)
        return id
    }

    @Test("""
        a 410 from A's callback URL settles A's summary at once and A's later ones without a request; \
        B's still arrive
        """)
    func goneSettlesOnlyThatApplication() async throws {
        try await TestApplication.test(.inProcess, configure: { configuration, _ in
            configuration.webhooks.allowPrivateTargets = true
        }) { app, client in
            app.httpClient.answer { request in OutboundResponse(status: request.url.path == "/a/status" ? 410 : 204) }
            let tenants = try await VonageFaceFixtures.make(app)
            try await setCallback(app, tenants.a.id, path: "/a/status")
            try await setCallback(app, tenants.b.id, path: "/b/status")
            var attempts = try #require(app.application.webhookAttempts).makeAsyncIterator()
            let a = try tenants.client(client, app: app), b = try tenants.client(client, app: app, asB: true)

            let first = try await complete(a, client, "99012345672")
            #expect(try #require(await attempts.next()).result == .endpointDisabled)
            let rows = try await app.store.outboxMessages(verificationId: first)
            #expect(!rows.isEmpty && rows.allSatisfy { $0.state != .pending }, "\(rows.map(\.state))")

            let second = try await complete(a, client, "99012345674")
            let skipped = try #require(await attempts.next())
            #expect(skipped.verificationId == second && skipped.result == .endpointDisabled)
            #expect(skipped.statusCode == nil)
            #expect(try await app.store.outboxMessages(verificationId: second).allSatisfy { $0.state != .pending })

            let other = try await complete(b, client, "99012345676")
            let delivered = try #require(await attempts.next())
            #expect(delivered.verificationId == other && delivered.result == .delivered)
            #expect(app.httpClient.requests.filter { $0.url.path == "/a/status" }.count == 1)
            #expect(app.httpClient.requests.filter { $0.url.path == "/b/status" }.count == 1)
        }
    }

    @Test("a row older than its whole retry schedule is settled dead at its next claim, without a request")
    func rowsEndInBoundedTime() async throws {
        let store = InMemoryStore()
        let clock = ManualClock()
        let http = RecordingHTTPClient()
        let endpoint = WebhookEndpoint(url: "http://127.0.0.1:9/h", secrets: WebhookFixtures.secrets)
        var settings = WebhookSettings()
        settings.endpoints = [endpoint]
        settings.allowPrivateTargets = true
        let created = clock.now()
        let draft = Verification(id: "vf_old", phoneNumber: "+99012345670", options: VerificationOptions(),
                                 clientTokenHash: [1], createdAt: created)
        let row = OutboxMessage(id: "msg_old", endpoint: endpoint.id, verificationId: "vf_old", type: "t", payload: [],
                                createdAt: created)
        _ = try await store.insert(draft, events: [], outbox: [row], at: created, idempotency: nil)
        let limit = settings.retry.giveUp(after: created)
        #expect(limit.timeIntervalSince(created) > 7 * 3600 && limit.timeIntervalSince(created) <= 3 * 24 * 3600)
        clock.advance(by: limit.timeIntervalSince(created))
        let dispatcher = WebhookDispatcher(store: store, clock: clock, settings: settings, httpClient: http,
                                           random: { 0.5 }, timeline: { _, _ in })
        #expect(await dispatcher.deliverDue() == 1)
        #expect(http.requests.isEmpty)
        #expect(try await store.outboxMessage(id: "msg_old")?.state == .dead)
    }
}
