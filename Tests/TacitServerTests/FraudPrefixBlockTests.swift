import Foundation
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// Protection levels and the automatic prefix blocks through the API (docs/fraud.md): what a
/// level lets through, a blocked start's answer on `/v1` and the Twilio face, and that it sends,
/// stores and counts nothing.
@Suite("Fraud: levels and prefix blocks", .timeLimit(.minutes(1)))
struct FraudPrefixBlockTests {
    /// Numbers of one attacked range, each in a hundred-block of its own.
    static func attack(_ index: Int) -> String { "+44791113" + String(format: "%04d", index * 101 % 10_000) }

    static func setLevel(_ app: TestApplication, _ level: FraudLevel, id: String = Application.devID) async throws {
        let store = try #require(app.store as? any ApplicationStore)
        var settings = try #require(try await store.application(id: id)).settings
        settings.fraudLevel = level
        #expect(try await store.updateApplication(id: id, settings: settings))
    }

    @Test("off lets a premium-rate number through; max refuses a VoIP number with rule line_type")
    func levels() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            try await Self.setLevel(app, .off)
            #expect(try await client.start("+449098765432", channels: ["sms"]).reply.status == 202)
            #expect(try await client.start("+445612345678", channels: ["sms"]).reply.status == 202)
            try await Self.setLevel(app, .max)
            let voip = try await client.start("+445612345679", channels: ["sms"]).reply
            #expect(voip.status == 403 && voip.string("detail")?.contains("rule line_type") == true, "\(voip.text)")
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains(#"tacit_fraud_decisions_total{decision="blocked",rule="line_type"} 1"#))
        }
    }

    @Test("at standard the attacked range's eleventh start is 403 fraud-blocked with Retry-After, nothing sent or stored; the Twilio face answers 60410")
    func blockedStart() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            try await Self.setLevel(app, .standard)
            for index in 0..<10 {
                let reply = try await client.start(Self.attack(index), channels: ["sms"]).reply
                #expect(reply.status == 202, "\(reply.text)")
            }
            #expect(app.sender.messages.count == 10)
            let blocked = try await client.start(Self.attack(10), channels: ["sms"]).reply
            #expect(blocked.status == 403 && blocked.string("type")?.hasSuffix("fraud-blocked") == true,
                    "\(blocked.text)")
            #expect(blocked.json["retry_after"] as? Int == 3_600 && blocked.header("Retry-After") == "3600")
            #expect(blocked.string("detail")?.contains("rule prefix_volume") == true)
            #expect(!blocked.text.contains("44791113"), "the answer names no part of the number")
            #expect(app.sender.messages.count == 10, "nothing sent")
            // A number elsewhere goes on.
            #expect(try await client.start("+447911123456", channels: ["sms"]).reply.status == 202)
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains(#"tacit_fraud_decisions_total{decision="blocked",rule="prefix_volume"} 1"#),
                    "\(metrics)")
            let listed = try await client.get("/v1/fraud/blocks")
            #expect(listed.status == 200, "\(listed.text)")
            #expect(listed.text.contains(#""prefix":"+44791113""#), "\(listed.text)")
            let lifted = try await client.delete("/v1/fraud/blocks/+44791113")
            #expect(lifted.status == 204, "\(lifted.text)")
            #expect(try await client.delete("/v1/fraud/blocks/+44791113").status == 404)
            #expect(try await client.delete("/v1/fraud/blocks/12").status == 422)
            #expect(try await client.start(Self.attack(11), channels: ["sms"]).reply.status == 202)
        }
    }

    @Test("through the Twilio face a start in a blocked range is Twilio's 403 60410")
    func twilioFace() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.setLevel(app, .standard, id: twilio.application.id)
            for index in 0..<10 { #expect(try await twilio.start(Self.attack(index)).status == 201) }
            let blocked = try await twilio.start(Self.attack(10))
            #expect(blocked.status == 403 && blocked.json["code"] as? Int == 60410, "\(blocked.text)")
            #expect(app.sender.messages.count == 10)
        }
    }
}
