import Foundation
@testable import TacitFaceTwilio
@testable import TacitServer
import TacitTesting
import Testing

/// The Twilio Verify v2 face in process: the resource, its statuses, re-sends, the
/// documented limits and their codes, and one engine under it (`/v1` sees the same id).
@Suite("Twilio face: verifications and checks", .timeLimit(.minutes(1)))
struct TwilioFaceTests {
    static let number = "+99012345672"

    @Test("a start answers 201 with Twilio's resource: a VE sid, the app's sids, pending, one send attempt, and the inbox gets a code")
    func start() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let reply = try await twilio.start(Self.number)
            #expect(reply.status == 201, "\(reply.text)")
            let json = reply.json
            let sid = try #require(json["sid"] as? String)
            #expect(TwilioFace.isVerificationSid(sid))
            #expect(json["service_sid"] as? String == twilio.serviceSid && json["account_sid"] as? String == twilio.accountSid)
            #expect(json["to"] as? String == Self.number && json["channel"] as? String == "sms")
            #expect(json["status"] as? String == "pending" && json["valid"] as? Bool == false)
            let attempts = try #require(json["send_code_attempts"] as? [[String: Any]])
            #expect(attempts.count == 1 && attempts[0]["channel"] as? String == "sms")
            #expect((attempts[0]["attempt_sid"] as? String)?.hasPrefix("VL") == true)
            #expect(json["sna"] is NSNull && json["amount"] is NSNull && json["payee"] is NSNull && json["lookup"] is [String: Any])
            #expect((json["url"] as? String)?.hasSuffix("\(twilio.service)/Verifications/\(sid)") == true)
            #expect((json["date_created"] as? String)?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
            #expect(try await keyless.latestCode(Self.number) != nil)
            let events = try await keyless.bearer(twilio.apiKey).get("/v1/verifications/\(sid)/events")
            #expect(events.text.contains("\"face\":\"twilio\""), "the timeline names the face")
        }
    }

    @Test("the right code approves: 200 approved and valid, then the sid fetches as approved and a second check is 404")
    func approveByCode() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let sid = try #require(try await twilio.start(Self.number).json["sid"] as? String)
            let code = try #require(try await keyless.latestCode(Self.number))
            let checked = try await twilio.check(to: Self.number, code: code)
            #expect(checked.status == 200, "\(checked.text)")
            #expect(checked.json["status"] as? String == "approved" && checked.json["valid"] as? Bool == true)
            #expect(checked.json["sid"] as? String == sid && checked.json["sna_attempts_error_codes"] is NSNull)
            #expect(try await twilio.fetch(sid).json["status"] as? String == "approved")
            let again = try await twilio.check(to: Self.number, code: code)
            #expect(again.status == 404 && again.json["code"] as? Int == 20404)
            #expect(again.json["message"] as? String == "The requested resource \(twilio.service.dropFirst(3))/VerificationCheck was not found")
        }
    }

    @Test("a check by VerificationSid works as one by To")
    func checkBySid() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let sid = try #require(try await twilio.start(Self.number, channel: "whatsapp").json["sid"] as? String)
            let code = try #require(try await keyless.latestCode(Self.number))
            let checked = try await twilio.check(sid: sid, code: code)
            #expect(checked.json["status"] as? String == "approved" && checked.json["channel"] as? String == "whatsapp")
        }
    }

    @Test("wrong codes answer pending four times and the fifth max_attempts_reached, as Twilio answers five checks; the sixth, right or not, is 429 60202")
    func checkLimit() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let sid = try #require(try await twilio.start(Self.number).json["sid"] as? String)
            let code = try #require(try await keyless.latestCode(Self.number))
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 1...4 {
                let reply = try await twilio.check(to: Self.number, code: wrong)
                #expect(reply.status == 200 && reply.json["status"] as? String == "pending" && reply.json["valid"] as? Bool == false)
            }
            let fifth = try await twilio.check(to: Self.number, code: wrong)
            #expect(fifth.status == 200 && fifth.json["status"] as? String == "max_attempts_reached", "\(fifth.text)")
            #expect(fifth.json["valid"] as? Bool == false && fifth.json["sid"] as? String == sid)
            #expect(try await twilio.fetch(sid).json["status"] as? String == "max_attempts_reached")
            let late = try await twilio.check(sid: sid, code: code)
            #expect(late.status == 429 && late.json["code"] as? Int == 60202)
        }
    }

    @Test("starting the same number again re-sends on the channel named, adds a send attempt and keeps the sid; the sixth send is 60203")
    func resend() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let sid = try #require(try await twilio.start(Self.number).json["sid"] as? String)
            let again = try await twilio.start(Self.number, channel: "call")
            #expect(again.status == 201 && again.json["sid"] as? String == sid && again.json["channel"] as? String == "call")
            #expect((again.json["send_code_attempts"] as? [[String: Any]])?.map { $0["channel"] as? String } == ["sms", "call"])
            for _ in 3...5 { #expect(try await twilio.start(Self.number).status == 201) }
            let sixth = try await twilio.start(Self.number)
            #expect(sixth.status == 429 && sixth.json["code"] as? Int == 60203, "\(sixth.text)")
            let code = try #require(try await keyless.latestCode(Self.number))
            #expect(try await twilio.check(to: Self.number, code: code).json["status"] as? String == "approved",
                    "the newest code is the one that works")
        }
    }

    @Test("Status=canceled cancels and Status=approved approves; an ended verification then answers 404")
    func updates() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let first = try #require(try await twilio.start(Self.number).json["sid"] as? String)
            let canceled = try await twilio.update(first, status: "canceled")
            #expect(canceled.status == 200 && canceled.json["status"] as? String == "canceled", "\(canceled.text)")
            #expect(try await twilio.update(first, status: "canceled").status == 404)
            let second = try #require(try await twilio.start(Self.number).json["sid"] as? String)
            #expect(second != first)
            let approved = try await twilio.update(second, status: "approved")
            #expect(approved.json["status"] as? String == "approved" && approved.json["valid"] as? Bool == true)
            let bad = try await twilio.update(try #require(try await twilio.start("+99012345674").json["sid"] as? String), status: "done")
            #expect(bad.status == 400 && bad.json["code"] as? Int == 60200 && bad.json["message"] as? String == "Invalid parameter: Status")
        }
    }

    @Test("a verification expires after Twilio's 10 minutes")
    func expires() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let sid = try #require(try await twilio.start(Self.number).json["sid"] as? String)
            await app.advance(by: 599)
            #expect(try await twilio.fetch(sid).json["status"] as? String == "pending")
            await app.advance(by: 2)
            #expect(try await twilio.fetch(sid).json["status"] as? String == "expired")
        }
    }

    @Test("/v1 reads a face-started verification under the same id, with the application's own key")
    func oneEngine() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let sid = try #require(try await twilio.start(Self.number).json["sid"] as? String)
            let state = try await keyless.bearer(twilio.apiKey).get("/v1/verifications/\(sid)")
            #expect(state.status == 200 && state.string("request_id") == sid && state.string("status") == "pending")
        }
    }
}
