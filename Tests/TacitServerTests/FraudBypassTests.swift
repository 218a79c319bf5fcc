import Foundation
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// The safe list and `risk_check: disable` (docs/fraud.md#safe-list-and-risk_check): a start
/// they cover skips the sequential-number guard and the per-address limit, and says so on its
/// timeline as `fraud:bypassed`; the line-type refusal and the per-number limits still apply.
@Suite("Fraud: safe list and risk_check", .timeLimit(.minutes(1)))
struct FraudBypassTests {
    /// Two distinct numbers an hour per hundred-block, and two starts an hour per address.
    static func strict(_ configuration: inout ServerConfiguration, _: inout TacitApplication.Dependencies) {
        configuration.security.velocity = .init(2, per: 3_600)
        configuration.security.verificationsPerAddress = .init(2, per: 3_600)
    }

    /// Numbers of one hundred-block.
    static func number(_ index: Int) -> String { "+44791112340\(index)" }

    static func events(_ client: TestClient, _ id: String) async throws -> [[String: Any]] {
        try await client.get("/v1/verifications/\(id)/events").json["events"] as? [[String: Any]] ?? []
    }

    static func bypassed(_ events: [[String: Any]]) -> [String: Any]? {
        events.first { $0["label"] as? String == "fraud:bypassed" }?["data"] as? [String: Any]
    }

    @Test("risk_check: disable skips the sequential-number guard and the device's address limit, on the timeline")
    func riskCheckDisabled() async throws {
        try await TestApplication.test(.inProcess, configure: Self.strict) { app, keyless in
            let calls = try await TwilioCalls.make(app, keyless)
            let client = calls.client.bearer(calls.apiKey)
            let device = ["device_ip": "203.0.113.7"]
            for index in 0..<2 {
                let reply = try await client.start(Self.number(index), channels: ["sms"], extra: device).reply
                #expect(reply.status == 202)
            }
            #expect(try await client.start(Self.number(2), channels: ["sms"], extra: device).reply.status == 429)
            let trusted = device.merging(["risk_check": "disable"]) { $1 }
            let (id, reply) = try await client.start(Self.number(3), channels: ["sms"], extra: trusted)
            #expect(reply.status == 202, "\(reply.text)")
            let data = try #require(Self.bypassed(try await Self.events(client, id)))
            #expect(data["reason"] as? String == "risk_check")
            #expect(data["rules"] as? [String] == ["address_limit", "sequential_numbers"])
            // The next start without it meets the rules again.
            #expect(try await client.start(Self.number(4), channels: ["sms"], extra: device).reply.status == 429)
        }
    }

    @Test("a safe-listed number or prefix skips the sequential-number guard; the start says so")
    func safeListed() async throws {
        try await TestApplication.test(.inProcess, configure: Self.strict) { app, keyless in
            let calls = try await TwilioCalls.make(app, keyless)
            let store = try #require(app.store as? any SafeListStore)
            let application = calls.application.id
            #expect(try await store.addSafeListEntry(SafeListEntry(applicationId: application,
                                                                   entry: "+447911123405", createdAt: Date())))
            let client = calls.client.bearer(calls.apiKey)
            for index in 0..<2 {
                #expect(try await client.start(Self.number(index), channels: ["sms"]).reply.status == 202)
            }
            #expect(try await client.start(Self.number(2), channels: ["sms"]).reply.status == 429)
            let (id, reply) = try await client.start(Self.number(5), channels: ["sms"])
            #expect(reply.status == 202, "\(reply.text)")
            let data = try #require(Self.bypassed(try await Self.events(client, id)))
            #expect(data["reason"] as? String == "safe_list")
            #expect(data["rules"] as? [String] == ["sequential_numbers"])
            #expect(try await store.addSafeListEntry(SafeListEntry(applicationId: application, entry: "+4479111234*",
                                                                   createdAt: Date())))
            #expect(try await client.start(Self.number(6), channels: ["sms"]).reply.status == 202)
            // Another application's safe list is not this one's: the block, counted over every
            // application, is full for it.
            let other = try await TwilioCalls.make(app, keyless, name: "Other")
            #expect(try await other.client.bearer(other.apiKey).start(Self.number(7), channels: ["sms"]).reply.status
                        == 429)
        }
    }

    @Test("neither the safe list nor risk_check lets a premium-rate number or a spent per-number limit through")
    func neverBypassed() async throws {
        try await TestApplication.test(.inProcess, configure: { configuration, _ in
            configuration.security.verificationsPerNumber = .init(1, per: 86_400)
        }) { app, keyless in
            let calls = try await TwilioCalls.make(app, keyless)
            let store = try #require(app.store as? any SafeListStore)
            #expect(try await store.addSafeListEntry(SafeListEntry(applicationId: calls.application.id, entry: "+44*",
                                                                   createdAt: Date())))
            let client = calls.client.bearer(calls.apiKey)
            let premium = try await client.start("+449098765432", extra: ["risk_check": "disable"]).reply
            #expect(premium.status == 403 && premium.string("type")?.hasSuffix("fraud-blocked") == true)
            let (id, first) = try await client.start(Self.number(0), channels: ["sms"])
            #expect(first.status == 202)
            #expect(try await client.send("DELETE", "/v1/verifications/\(id)").status < 300)
            let again = try await client.start(Self.number(0), channels: ["sms"], extra: ["risk_check": "disable"])
            #expect(again.reply.status == 429, "\(again.reply.text)")
            #expect(app.sender.messages.count == 1)
        }
    }

    @Test("RiskCheck=disable through the Twilio face skips the sequential-number guard, on the timeline")
    func twilioRiskCheck() async throws {
        try await TestApplication.test(.inProcess, configure: Self.strict) { app, keyless in
            let calls = try await TwilioCalls.make(app, keyless)
            #expect(try await calls.start(Self.number(0)).status == 201)
            #expect(try await calls.start(Self.number(1)).status == 201)
            #expect(try await calls.start(Self.number(2)).status == 429)
            let reply = try await calls.post(calls.service + "/Verifications",
                                             [("To", Self.number(3)), ("Channel", "sms"), ("RiskCheck", "disable")])
            #expect(reply.status == 201, "\(reply.text)")
            let sid = try #require(reply.json["sid"] as? String)
            let events = try await Self.events(calls.client.bearer(calls.apiKey), sid)
            #expect(Self.bypassed(events)?["reason"] as? String == "risk_check", "\(events)")
            #expect(app.sender.messages.count == 3)
        }
    }
}
