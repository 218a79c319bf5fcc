import Foundation
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// Geo permissions (docs/fraud.md#geo-permissions): a start none of whose steps may reach the
/// number's country is refused 403 `fraud-blocked` with nothing stored or sent (on `/v1` and
/// through the faces), a refused channel's steps are skipped with reason `geo`, `monitor` mode
/// refuses nothing and records `fraud:monitored`, and trusted starts skip the rule.
@Suite("Fraud: geo permissions", .timeLimit(.minutes(1)))
struct FraudGeoTests {
    /// A British mobile (GB) and a German one (DE).
    static let british = "+447400123456"
    static let german = "+4915112345678"

    static func allow(_ app: TestApplication, _ application: String, _ channel: String, _ countries: [String],
                      mode: GeoPermission.Mode = .enforce) async throws {
        let manager = try #require(GeoPermissionManager(store: app.store))
        let set = try await manager.allow(application: application,
                                          channel: try GeoPermissionManager.channel(channel),
                                          countries: countries, mode: mode, now: app.clock.now())
        #expect(set != nil)
    }

    static func events(_ client: TestClient, _ id: String) async throws -> [[String: Any]] {
        try await client.get("/v1/verifications/\(id)/events").json["events"] as? [[String: Any]] ?? []
    }

    static func data(_ events: [[String: Any]], _ label: String) -> [[String: Any]] {
        events.filter { $0["label"] as? String == label }.compactMap { $0["data"] as? [String: Any] }
    }

    @Test("a number whose country no step of the workflow may reach is refused 403 fraud-blocked, nothing stored")
    func refused() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.allow(app, twilio.application.id, "sms", ["GB", "FR"])
            try await Self.allow(app, twilio.application.id, "voice", ["GB"])
            let client = keyless.bearer(twilio.apiKey)
            let reply = try await client.start(Self.german, channels: ["sms", "voice"]).reply
            #expect(reply.status == 403 && reply.string("type")?.hasSuffix("fraud-blocked") == true, "\(reply.text)")
            #expect(reply.string("detail")?.contains("rule geo") == true && reply.text.contains("DE"), "\(reply.text)")
            #expect(!reply.text.contains("15112345678"))
            #expect(app.sender.messages.isEmpty)
            let store = try #require(app.store as? any ApplicationStore)
            let application = twilio.application.id
            #expect(try await store.pendingVerification(contact: Self.german, application: application) == nil)
            // An allowed country starts as before, and a refusal spent nothing: the next start is not 409.
            let allowed = try await client.start(Self.british, channels: ["sms", "voice"]).reply
            #expect(allowed.status == 202, "\(allowed.text)")
        }
    }

    @Test("the faces answer it as they answer a refused line type: Twilio 403 60410, Vonage 422 invalid-params")
    func faces() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.allow(app, twilio.application.id, "sms", ["GB"])
            let refused = try await twilio.start(Self.german)
            #expect(refused.status == 403 && refused.json["code"] as? Int == 60410, "\(refused.text)")
            #expect(try await twilio.start(Self.british).status == 201)
            let vonage = try await VonageFaceFixtures.make(app)
            try await Self.allow(app, vonage.a.id, "sms", ["GB"])
            let reply = try await vonage.client(keyless, app: app).start(Self.german, ["sms"])
            #expect(reply.status == 422 && reply.string("type")?.hasSuffix("#invalid-params") == true, "\(reply.text)")
            #expect(reply.string("detail")?.contains("rule geo") == true, "\(reply.text)")
            #expect(app.sender.messages.map(\.to) == [Self.british])
        }
    }

    @Test("a refused first step is skipped with reason geo and the next step, whose channel allows it, sends")
    func skipped() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.allow(app, twilio.application.id, "sms", ["GB"])
            let client = keyless.bearer(twilio.apiKey)
            let (id, reply) = try await client.start(Self.german, channels: ["sms", "voice"])
            #expect(reply.status == 202, "\(reply.text)")
            #expect(app.sender.messages.map(\.channel) == [.voice])
            let state = try await client.get("/v1/verifications/\(id)").text
            #expect(state.contains(#"{"channel":"sms","status":"failed"}"#), "\(state)")
            let events = try await Self.events(client, id)
            #expect(events.contains { $0["label"] as? String == "sms:skipped"
                        && ($0["data"] as? [String: Any])?["reason"] as? String == "geo" }, "\(events)")
            #expect(Self.data(events, "fraud:monitored").isEmpty)
        }
    }

    @Test("a refused later step is skipped when the workflow reaches it: after the voice step times out, no SMS")
    func laterStepSkipped() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.allow(app, twilio.application.id, "sms", ["GB"])
            let client = keyless.bearer(twilio.apiKey)
            let (id, reply) = try await client.start(Self.german, channels: ["voice", "sms"],
                                                     extra: ["channel_timeout": 60])
            #expect(reply.status == 202, "\(reply.text)")
            await app.advance(by: 61)
            let state = try await client.get("/v1/verifications/\(id)")
            #expect(state.string("status") != "pending", "\(state.text)")
            #expect(app.sender.messages.map(\.channel) == [.voice])
            let reasons = try await Self.events(client, id).compactMap { ($0["data"] as? [String: Any])?["reason"] }
            #expect(reasons.contains { $0 as? String == "geo" }, "\(reasons)")
        }
    }

    @Test("a refused silent step asks no provider: it ends with reason geo and the SMS step sends")
    func silentSkipped() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.allow(app, twilio.application.id, "silent", ["GB"])
            let client = keyless.bearer(twilio.apiKey)
            let (id, reply) = try await client.start(Self.german, channels: ["silent_auth", "sms"])
            #expect(reply.status == 202 && reply.json["check_url"] == nil, "\(reply.text)")
            #expect(app.httpClient.requests.isEmpty)
            #expect(app.sender.messages.map(\.channel) == [.sms])
            let events = try await client.get("/v1/verifications/\(id)/events").text
            #expect(events.contains(#""reason":"geo""#), "\(events)")
        }
    }

    @Test("monitor mode refuses and skips nothing: the start goes on, fraud:monitored names rule, channel, country")
    func monitored() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.allow(app, twilio.application.id, "sms", ["GB"], mode: .monitor)
            let client = keyless.bearer(twilio.apiKey)
            let (id, reply) = try await client.start(Self.german, channels: ["sms"])
            #expect(reply.status == 202, "\(reply.text)")
            #expect(app.sender.messages.map(\.channel) == [.sms])
            let events = try await Self.events(client, id)
            let monitored = Self.data(events, "fraud:monitored")
            #expect(monitored.count == 1, "\(events)")
            #expect(monitored.first?["rule"] as? String == "geo" && monitored.first?["channel"] as? String == "sms"
                        && monitored.first?["country"] as? String == "DE", "\(monitored)")
            let text = try await client.get("/v1/verifications/\(id)/events").text
            #expect(!text.contains("15112345678"))
            // An allowed country leaves no such event.
            let (other, _) = try await client.start(Self.british, channels: ["sms"])
            #expect(Self.data(try await Self.events(client, other), "fraud:monitored").isEmpty)
        }
    }

    @Test("risk_check: disable and a safe-listed number skip geo permissions, and fraud:bypassed lists geo")
    func bypassed() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.allow(app, twilio.application.id, "sms", ["GB"])
            let client = keyless.bearer(twilio.apiKey)
            let (id, reply) = try await client.start(Self.german, channels: ["sms"],
                                                     extra: ["risk_check": "disable"])
            #expect(reply.status == 202, "\(reply.text)")
            let bypassed = Self.data(try await Self.events(client, id), "fraud:bypassed")
            #expect(bypassed.first?["reason"] as? String == "risk_check")
            #expect((bypassed.first?["rules"] as? [String])?.contains("geo") == true, "\(bypassed)")
            let store = try #require(app.store as? any SafeListStore)
            #expect(try await store.addSafeListEntry(SafeListEntry(applicationId: twilio.application.id,
                                                                   entry: "+49151*", createdAt: Date())))
            let listed = try await twilio.start("+4915112345679")
            #expect(listed.status == 201, "\(listed.text)")
            #expect(app.sender.messages.map(\.channel) == [.sms, .sms])
            // Without either, the rule applies again.
            #expect(try await client.start("+4917612345678", channels: ["sms"]).reply.status == 403)
        }
    }

    @Test("a test number meets geo permissions as any number does: refused in a country no step may reach")
    func testNumber() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let secrets = try #require(app.application.assembled.withLock { $0?.engine.runner.secrets })
            let manager = try #require(TestNumberManager(store: app.store) { try secrets.fieldProtection.seal($0) })
            let added = try await manager.add(application: twilio.application.id, number: Self.german, code: "123456",
                                              expiresAt: nil, now: app.clock.now())
            #expect(added == Self.german)
            try await Self.allow(app, twilio.application.id, "sms", ["GB"])
            let client = keyless.bearer(twilio.apiKey)
            #expect(try await client.start(Self.german, channels: ["sms"]).reply.status == 403)
            let (id, reply) = try await client.start(Self.german, channels: ["sms", "voice"])
            #expect(reply.status == 202, "\(reply.text)")
            #expect(app.sender.messages.isEmpty)
            let checked = try await client.post("/v1/verifications/\(id)/check", json: ["code": "123456"])
            #expect(checked.status == 200, "\(checked.text)")
        }
    }

    @Test("another application's permissions don't judge this one's starts")
    func perApplication() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let a = try await TwilioCalls.make(app, keyless, name: "Alpha")
            let b = try await TwilioCalls.make(app, keyless, name: "Bravo")
            try await Self.allow(app, a.application.id, "sms", ["GB"])
            #expect(try await keyless.bearer(b.apiKey).start(Self.german, channels: ["sms"]).reply.status == 202)
            #expect(try await keyless.bearer(a.apiKey).start(Self.german, channels: ["sms"]).reply.status == 403)
        }
    }
}
