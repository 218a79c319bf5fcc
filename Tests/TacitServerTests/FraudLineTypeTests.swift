import Foundation
@testable import TacitServer
import TacitTesting
import Testing

/// Line types on every start (docs/fraud.md#line-types): on the start's event, no SMS to a
/// fixed line (its voice step instead, else 422), and premium-rate, shared-cost and UAN
/// numbers refused with 403 `fraud-blocked`, on `/v1` and through the Twilio face.
@Suite("Fraud: line types", .timeLimit(.minutes(1)))
struct FraudLineTypeTests {
    static let mobile = "+447911123456"
    static let fixedLine = "+442079460000"

    @Test("the start's event names the number's line type")
    func onTheTimeline() async throws {
        try await TestApplication.test(.inProcess) { _, client in
            let (id, reply) = try await client.start(Self.mobile, channels: ["sms"])
            #expect(reply.status == 202, "\(reply.text)")
            let events = try await client.get("/v1/verifications/\(id)/events").text
            #expect(events.contains(#""line_type":"mobile""#), "\(events)")
        }
    }

    @Test("premium-rate, shared-cost and UAN numbers are refused with 403 fraud-blocked and nothing is sent",
          arguments: ["+449098765432", "+33810123456", "+445512345678"])
    func blocked(number: String) async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let reply = try await client.start(number, channels: ["sms", "voice"]).reply
            #expect(reply.status == 403 && reply.string("type")?.hasSuffix("fraud-blocked") == true, "\(reply.text)")
            #expect(reply.string("detail")?.contains("rule line_type") == true)
            #expect(app.sender.messages.isEmpty)
        }
    }

    @Test("a fixed line's SMS step is skipped with reason fixed_line and the voice step calls")
    func fixedLineUsesVoice() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let (id, reply) = try await client.start(Self.fixedLine, channels: ["sms", "voice"])
            #expect(reply.status == 202, "\(reply.text)")
            #expect(app.sender.messages.map(\.channel) == [.voice])
            let state = try await client.get("/v1/verifications/\(id)").text
            #expect(state.contains(#"{"channel":"sms","status":"failed"}"#), "\(state)")
            let events = try await client.get("/v1/verifications/\(id)/events").text
            #expect(events.contains(#""line_type":"fixed_line""#), "\(events)")
            #expect(events.contains(#""reason":"fixed_line""#), "\(events)")
        }
    }

    @Test("a fixed line with no voice step is refused 422 invalid-phone-number, nothing sent")
    func fixedLineWithoutVoice() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let reply = try await client.start(Self.fixedLine, channels: ["sms"]).reply
            #expect(reply.status == 422 && reply.string("type")?.hasSuffix("invalid-phone-number") == true)
            #expect(reply.string("detail")?.contains("fixed line") == true, "\(reply.text)")
            #expect(app.sender.messages.isEmpty)
        }
    }

    @Test("through the Twilio face a premium-rate number is 403 60410 and a fixed line by SMS 400 60205")
    func twilioFace() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let premium = try await twilio.start("+449098765432")
            #expect(premium.status == 403 && premium.json["code"] as? Int == 60410, "\(premium.text)")
            let fixed = try await twilio.start(Self.fixedLine)
            #expect(fixed.status == 400 && fixed.json["code"] as? Int == 60205, "\(fixed.text)")
            let call = try await twilio.start(Self.fixedLine, channel: "call")
            #expect(call.status == 201, "\(call.text)")
            #expect(app.sender.messages.map(\.channel) == [.voice])
        }
    }
}
