import Foundation
import Testing
import TacitCore
import TacitServer
import TacitStore
import TacitTesting

@Suite("Insights: the summary")
struct InsightsSummaryTests {
    enum Backing: String, CaseIterable, Sendable { case memory, sqlite }

    static let window = "from=2026-11-29T00:00:00Z&to=2026-12-01T00:00:00Z"

    static func group(_ reply: TestResponse, _ key: String?) -> [String: Any]? {
        (reply["groups"] as? [[String: Any]])?.first { ($0["key"] as? String) == key }
    }

    @Test("the summary's figures match a known history", arguments: Backing.allCases)
    func knownHistory(backing: Backing) async throws {
        let store: (any VerificationStore)? = backing == .memory ? InMemoryStore() : nil
        try await TestApplication.test(.inProcess, store: store, configure: { _, dependencies in
            dependencies.codes = .fixed("424242")
        }) { server, client in
            let a = try await client.start("+447400123456", channels: ["sms", "voice"]).id
            let b = try await client.start("+447400123457", channels: ["sms"]).id
            let c = try await client.start("+33612345678", channels: ["voice"]).id
            _ = try await client.start("+447400123458", channels: ["sms"]).id
            server.clock.advance(by: 12)
            #expect(try await client.post("/v1/verifications/\(a)/check", json: ["code": "424242"]).status == 200)
            server.clock.advance(by: 28)
            #expect(try await client.post("/v1/verifications/\(b)/check", json: ["code": "424242"]).status == 200)
            #expect(try await client.delete("/v1/verifications/\(c)").status == 204)

            let byChannel = try await client.get("/v1/insights/summary?\(Self.window)&group_by=channel")
            #expect(byChannel.status == 200)
            let sms = try #require(Self.group(byChannel, "sms"))
            #expect(sms["starts"] as? Int == 3)
            #expect(sms["sends"] as? Int == 3)
            #expect(sms["conversions"] as? Int == 2)
            #expect(sms["conversion_rate"] as? Double == 0.6667)
            // 12 s falls in (10, 15], 40 s in (30, 45]: the median interpolates to the first's top.
            #expect(sms["median_seconds_to_verify"] as? Double == 15)
            let voice = try #require(Self.group(byChannel, "voice"))
            #expect(voice["starts"] as? Int == 1)
            #expect(voice["conversions"] as? Int == 0)
            #expect(voice["median_seconds_to_verify"] is NSNull)
            let totals = try #require(byChannel["totals"] as? [String: Any])
            #expect(totals["starts"] as? Int == 4)
            #expect(totals["conversion_rate"] as? Double == 0.5)
            #expect((totals["silent_auth"] as? [String: Any])?["success_rate"] is NSNull)

            let byCountry = try await client.get("/v1/insights/summary?\(Self.window)&group_by=country")
            #expect(Self.group(byCountry, "GB")?["starts"] as? Int == 3)
            #expect(Self.group(byCountry, "FR")?["starts"] as? Int == 1)
            let byProvider = try await client.get("/v1/insights/summary?\(Self.window)&group_by=provider")
            #expect(Self.group(byProvider, "dev")?["sends"] as? Int == 4)
            #expect(Self.group(byProvider, "dev")?["conversions"] as? Int == 2)
            let byPrefix = try await client.get("/v1/insights/summary?\(Self.window)&group_by=prefix")
            #expect(Self.group(byPrefix, "+44740")?["starts"] as? Int == 3)
            let byDay = try await client.get("/v1/insights/summary?\(Self.window)&group_by=day")
            #expect((byDay["groups"] as? [[String: Any]])?.map { $0["key"] as? String } == ["2026-11-30"])

            // Retention deletes verifications, never what they counted.
            let swept = try await server.store.sweepFinished(before: server.clock.now().addingTimeInterval(1), limit: 100)
            #expect(swept.verifications == 3)
            #expect(((try await client.get("/v1/verifications?status=completed"))["verifications"] as? [Any])?.isEmpty == true)
            let later = try await client.get("/v1/insights/summary?\(Self.window)&group_by=channel")
            #expect(later.body == byChannel.body)
        }
    }

    @Test("a start the line-type rule refuses counts as a blocked send by prefix, country and channel, never a start",
          arguments: Backing.allCases)
    func refusedStartIsBlocked(backing: Backing) async throws {
        let store: (any VerificationStore)? = backing == .memory ? InMemoryStore() : nil
        try await TestApplication.test(.inProcess, store: store) { _, client in
            _ = try await client.start("+447400123456", channels: ["sms"])
            for _ in 0..<2 {
                let refused = try await client.start("+449098765432", channels: ["sms", "voice"]).reply
                #expect(refused.status == 403 && refused.string("type") == "fraud-blocked", "\(refused.text)")
            }
            let byPrefix = try await client.get("/v1/insights/summary?\(Self.window)&group_by=prefix")
            #expect(Self.group(byPrefix, "+44909")?["blocked_sends"] as? Int == 2)
            #expect(Self.group(byPrefix, "+44909")?["starts"] as? Int == 0)
            #expect(Self.group(byPrefix, "+44740")?["blocked_sends"] as? Int == 0)
            let byCountry = try await client.get("/v1/insights/summary?\(Self.window)&group_by=country")
            #expect(Self.group(byCountry, "GB")?["blocked_sends"] as? Int == 2)
            let byChannel = try await client.get("/v1/insights/summary?\(Self.window)&group_by=channel")
            #expect(Self.group(byChannel, "sms")?["blocked_sends"] as? Int == 2)
            let totals = try #require(byChannel["totals"] as? [String: Any])
            #expect(totals["blocked_sends"] as? Int == 2 && totals["starts"] as? Int == 1)
        }
    }

    @Test("a verification of an address alone counts under channel email, with no country or prefix",
          arguments: Backing.allCases)
    func addressAlone(backing: Backing) async throws {
        let store: (any VerificationStore)? = backing == .memory ? InMemoryStore() : nil
        try await TestApplication.test(.inProcess, store: store, configure: { _, dependencies in
            dependencies.codes = .fixed("424242")
        }) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            #expect(try await twilio.start("person@example.com", channel: "email").status == 201)
            #expect(try await twilio.check(to: "person@example.com", code: "424242").json["status"] as? String
                        == "approved")
            let client = keyless.bearer(twilio.apiKey)
            let byChannel = try await client.get("/v1/insights/summary?\(Self.window)&group_by=channel")
            let email = try #require(Self.group(byChannel, "email"))
            #expect(email["starts"] as? Int == 1 && email["sends"] as? Int == 1 && email["conversions"] as? Int == 1)
            for dimension in ["country", "prefix"] {
                let reply = try await client.get("/v1/insights/summary?\(Self.window)&group_by=\(dimension)")
                #expect((reply["groups"] as? [[String: Any]])?.count == 1)
                #expect(Self.group(reply, nil)?["conversions"] as? Int == 1, "\(dimension): the null key")
            }
        }
    }

    @Test("bad summary input answers a 400 problem naming the parameter", arguments: [
        ("from=2026-11-29T00:00:00Z&to=2026-12-01T00:00:00Z&group_by=week", "group_by"),
        ("from=2026-11-29T00:00:00Z&to=2026-12-01T00:00:00Z", "group_by"),
        ("to=2026-12-01T00:00:00Z&group_by=day", "from"),
        ("from=soon&to=2026-12-01T00:00:00Z&group_by=day", "from"),
        ("from=2026-12-01T00:00:00Z&to=2026-11-29T00:00:00Z&group_by=day", "to"),
        ("from=2026-01-01T00:00:00Z&to=2026-12-01T00:00:00Z&group_by=day", "to"),
        ("from=2026-11-29T00:00:00Z&to=2026-12-01T00:00:00Z&group_by=day&x=1", "x"),
    ])
    func badInput(query: String, name: String) async throws {
        try await TestApplication.test(.inProcess) { _, client in
            let reply = try await client.get("/v1/insights/summary?\(query)")
            #expect(reply.status == 400)
            #expect(reply.string("type") == "invalid-parameters")
            #expect((reply["invalid_parameters"] as? [[String: String]])?.map { $0["name"] } == [name])
        }
    }
}
