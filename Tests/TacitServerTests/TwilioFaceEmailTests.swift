import Foundation
@testable import TacitFaceTwilio
@testable import TacitServer
import TacitTesting
import Testing

/// The Twilio face's `Channel=email` (docs/compatible-apis.md#email-through-the-twilio-face):
/// a verification of an address alone, found by its address as one by number is found by
/// its number, with the code in the dev mailbox.
@Suite("Twilio face: email verifications", .timeLimit(.minutes(1)))
struct TwilioFaceEmailTests {
    static let address = "person@example.com"

    static func mailbox(_ client: TestClient, _ address: String = address) async throws -> [String] {
        let reply = try await client.get("/v1/dev/mailboxes/\(address)/inbox")
        #expect(reply.status == 200, "\(reply.text)")
        let messages = reply.json["messages"] as? [[String: Any]] ?? []
        return messages.compactMap { $0["body"] as? String }.compactMap { body in
            body.split(whereSeparator: { !$0.isNumber }).last(where: { $0.count >= 4 }).map(String.init)
        }
    }

    @Test("an email start answers 201 echoing To and channel email; a wrong code is pending, the mailbox's code approves, and the sid fetches as approved")
    func emailFlow() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let reply = try await twilio.start("Person@Example.COM", channel: "email")
            #expect(reply.status == 201, "\(reply.text)")
            let sid = try #require(reply.json["sid"] as? String)
            #expect(TwilioFace.isVerificationSid(sid))
            #expect(reply.json["to"] as? String == "Person@example.com" && reply.json["channel"] as? String == "email")
            #expect(reply.json["status"] as? String == "pending")
            let attempts = try #require(reply.json["send_code_attempts"] as? [[String: Any]])
            #expect(attempts.map { $0["channel"] as? String } == ["email"])
            let code = try #require(try await Self.mailbox(keyless, "Person@example.com").last)
            let wrong = code == "000000" ? "111111" : "000000"
            let missed = try await twilio.check(to: "Person@example.com", code: wrong)
            #expect(missed.status == 200 && missed.json["status"] as? String == "pending", "\(missed.text)")
            let checked = try await twilio.check(to: "Person@EXAMPLE.com", code: code)
            #expect(checked.status == 200, "\(checked.text)")
            #expect(checked.json["status"] as? String == "approved" && checked.json["valid"] as? Bool == true)
            #expect(checked.json["sid"] as? String == sid && checked.json["channel"] as? String == "email")
            #expect(checked.json["to"] as? String == "Person@example.com")
            let fetched = try await twilio.fetch(sid)
            #expect(fetched.json["status"] as? String == "approved" && fetched.json["to"] as? String == "Person@example.com")
            let events = try await keyless.bearer(twilio.apiKey).get("/v1/verifications/\(sid)/events")
            #expect(events.status == 200)
            #expect(!events.text.contains("Person@") && events.text.contains("P•••••@example.com"), "\(events.text)")
        }
    }

    @Test("a second start to the same address while one is pending re-sends by email on the same sid, as for a number; the newest code approves")
    func secondStartResends() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let first = try await twilio.start(Self.address, channel: "email")
            let sid = try #require(first.json["sid"] as? String)
            let again = try await twilio.start(Self.address, channel: "email")
            #expect(again.status == 201 && again.json["sid"] as? String == sid, "\(again.text)")
            let attempts = try #require(again.json["send_code_attempts"] as? [[String: Any]])
            #expect(attempts.map { $0["channel"] as? String } == ["email", "email"])
            let codes = try await Self.mailbox(keyless)
            #expect(codes.count == 2)
            let checked = try await twilio.check(to: Self.address, code: try #require(codes.last))
            #expect(checked.json["status"] as? String == "approved" && checked.json["sid"] as? String == sid)
        }
    }

    @Test("an address and a number are separate verifications: each is found by its own To")
    func addressBesideNumber() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let byNumber = try #require(try await twilio.start("+99012345672").json["sid"] as? String)
            let byEmail = try #require(try await twilio.start(Self.address, channel: "email").json["sid"] as? String)
            #expect(byNumber != byEmail)
            let code = try #require(try await Self.mailbox(keyless).last)
            let checked = try await twilio.check(to: Self.address, code: code)
            #expect(checked.json["status"] as? String == "approved" && checked.json["sid"] as? String == byEmail)
            #expect(try await twilio.fetch(byNumber).json["status"] as? String == "pending")
        }
    }

    @Test("the per-number start limit counts an address as it counts a number: the second start to it is 429 20429, another address still starts")
    func startLimitPerAddress() async throws {
        try await TestApplication.test(.inProcess, configure: { configuration, _ in
            configuration.security.verificationsPerNumber = .init(1, per: 86_400)
        }) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let sid = try #require(try await twilio.start(Self.address, channel: "email").json["sid"] as? String)
            #expect(try await twilio.update(sid, status: "canceled").json["status"] as? String == "canceled")
            let again = try await twilio.start(Self.address, channel: "email")
            #expect(again.status == 429 && again.json["code"] as? Int == 20429, "\(again.text)")
            #expect(try await twilio.start("other@example.com", channel: "email").status == 201)
        }
    }

    @Test("an invalid address, or a number, with Channel=email gets 400 60200 naming To and sends nothing",
          arguments: ["not-an-address", "+99012345672", "a@b@example.com", "person@localhost"])
    func invalidAddress(_ to: String) async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let reply = try await twilio.start(to, channel: "email")
            #expect(reply.status == 400 && reply.json["code"] as? Int == 60200, "\(reply.text)")
            #expect(reply.json["message"] as? String == "Invalid parameter: To")
            #expect(try await keyless.latestCode("+99012345672") == nil)
        }
    }
}
