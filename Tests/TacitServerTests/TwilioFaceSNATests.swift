import Foundation
import Testing
@testable import TacitServer
import TacitKit
import TacitTesting

/// Twilio's Silent Network Auth through the face, live: `Channel=sna` answers `sna.url`,
/// the device opens it over the cellular path, and a VerificationCheck with `To` and no
/// `Code` answers `approved`. The device is never handed a code.
@Suite("Twilio face: SNA", .timeLimit(.minutes(1)))
struct TwilioFaceSNATests {
    static let number = "+99012345670"

    @Test("sna.url opened over the cellular path, then a check with To and no Code, approves; before the device, the check is 60519 and no attempt")
    func silentSuccess() async throws {
        try await SilentCalls.test { calls in
            let twilio = try await TwilioCalls.make(calls.app, calls.client)
            let started = try await twilio.start(Self.number, channel: "sna")
            #expect(started.status == 201 && started.json["channel"] as? String == "sna", "\(started.text)")
            let url = try #require((started.json["sna"] as? [String: Any])?["url"] as? String)
            #expect(url.hasPrefix(calls.app.baseURL + CheckURLIssuer.path))
            let early = try await twilio.check(to: Self.number)
            #expect(early.status == 400 && early.json["code"] as? Int == 60519, "\(early.text)")
            let device = try await calls.follow(url, over: SilentCalls.cellular)
            #expect(device.status == 200)
            let answer = SilentCalls.json(device.body)
            #expect(answer["status"] as? String == "success" && answer["code"] == nil, "the device gets no code")
            let checked = try await twilio.check(to: Self.number)
            #expect(checked.status == 200 && checked.json["status"] as? String == "approved", "\(checked.text)")
            #expect(checked.json["channel"] as? String == "sna" && (checked.json["sna_attempts_error_codes"] as? [Any])?.isEmpty == true)
            let sid = try #require(started.json["sid"] as? String)
            #expect(try await twilio.fetch(sid).json["status"] as? String == "approved")
            let events = try await calls.client.bearer(twilio.apiKey).get("/v1/verifications/\(sid)/events")
            #expect(events.text.contains("silent_auth:code_issued") && events.text.contains("\"face\":\"twilio\""))
        }
    }

    @Test("sna.url opened over Wi-Fi fails the silent step; the verification has failed and a check finds none")
    func wifiFails() async throws {
        try await SilentCalls.test { calls in
            let twilio = try await TwilioCalls.make(calls.app, calls.client)
            let started = try await twilio.start(Self.number, channel: "sna")
            let url = try #require((started.json["sna"] as? [String: Any])?["url"] as? String)
            let device = try await calls.follow(url, over: SilentCalls.wifi)
            #expect(device.status == 403)
            let sid = try #require(started.json["sid"] as? String)
            #expect(try await twilio.fetch(sid).json["status"] as? String == "failed")
            #expect(try await twilio.check(to: Self.number).status == 404)
        }
    }

    @Test("a code presented on an SNA verification is checked as a code: wrong, it is an attempt and the answer stays pending")
    func codeOnSilentStep() async throws {
        try await SilentCalls.test { calls in
            let twilio = try await TwilioCalls.make(calls.app, calls.client)
            _ = try await twilio.start(Self.number, channel: "sna")
            let reply = try await twilio.check(to: Self.number, code: "123456")
            #expect(reply.status == 200 && reply.json["status"] as? String == "pending", "\(reply.text)")
        }
    }
}
