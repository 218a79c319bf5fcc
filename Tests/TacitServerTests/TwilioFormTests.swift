import Foundation
@testable import TacitFaceTwilio
@testable import TacitServer
import Testing

@Suite("Twilio face: form bodies, errors and ids")
struct TwilioFormTests {
    @Test("a form decodes its pairs in order, with + as a space and UTF-8 percent escapes, keeping repeated names")
    func decodes() throws {
        let form = try #require(TwilioForm(body: Array("To=%2B99012345670&Channel=sms&CustomFriendlyName=Caf%C3%A9+Bar&Tags=a&Tags=b&Empty=".utf8)))
        #expect(form["To"] == "+99012345670")
        #expect(form["CustomFriendlyName"] == "Café Bar")
        #expect(form["Tags"] == "a")
        #expect(form.pairs.map(\.name) == ["To", "Channel", "CustomFriendlyName", "Tags", "Tags", "Empty"])
        #expect(form["Empty"] == "")
        #expect(form["Missing"] == nil)
        #expect(form.unknownNames(["To", "Channel"]) == ["CustomFriendlyName", "Tags", "Tags", "Empty"])
    }

    @Test("an empty body is an empty form", arguments: ["", "&", "&&"])
    func empty(_ body: String) throws {
        #expect(try #require(TwilioForm(body: Array(body.utf8))).pairs.isEmpty)
    }

    @Test("a bad escape, invalid UTF-8, a nameless pair or an oversized body is no form at all",
          arguments: ["To=%ZZ", "To=%2", "=value", "To=1&=2", "%FF=1"])
    func refuses(_ body: String) {
        #expect(TwilioForm(body: Array(body.utf8)) == nil)
    }

    @Test("invalid UTF-8 and a body past 16 KiB are refused")
    func refusesBytes() {
        #expect(TwilioForm(body: [0x54, 0x6F, 0x3D, 0xFF]) == nil)
        #expect(TwilioForm(body: Array(repeating: UInt8(ascii: "a"), count: TwilioForm.maximumBytes + 1)) == nil)
    }

    @Test("errors answer Twilio's shape: code, message, more_info pointing at the code, status")
    func errorShape() throws {
        let response = TwilioError.invalidParameter("To").response
        #expect(response.status == 400)
        guard case .bytes(let bytes) = response.body else { Issue.record("not bytes"); return }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(json["code"] as? Int == 60200)
        #expect(json["message"] as? String == "Invalid parameter: To")
        #expect(json["more_info"] as? String == "https://www.twilio.com/docs/errors/60200")
        #expect(json["status"] as? Int == 400)
        #expect(Set(json.keys) == ["code", "message", "more_info", "status"])
    }

    @Test("a 404 names the resource without /v2, and Tacit's problems map onto Twilio's codes")
    func mapping() {
        #expect(TwilioError.notFound("/v2/Services/VA1/Verifications/VE2").message == "The requested resource /Services/VA1/Verifications/VE2 was not found")
        #expect(TwilioError(APIProblem.notFound, path: "/v2/x").code == 20404)
        #expect(TwilioError(APIProblem.unauthorized, path: "/v2/x").code == 20003)
        var limited = APIProblem(status: 429, type: "rate-limited", title: "Rate limited", detail: "later")
        limited.retryAfter = 7
        let error = TwilioError(limited, path: "/v2/x")
        #expect(error.code == 20429 && error.status == 429)
        #expect(error.headers.contains { $0.0 == "Retry-After" && $0.1 == "7" })
        #expect(TwilioError(APIProblem.destinationDenied, path: "/v2/x").code == 60605)
        #expect(TwilioError(APIProblem.unavailable, path: "/v2/x").status == 503)
    }

    @Test("verification sids are VE and 32 hex digits that sort by creation time; attempt sids are stable VL sids")
    func ids() {
        let times = [Date(timeIntervalSince1970: 1_700_000_000), Date(timeIntervalSince1970: 1_700_000_001)]
        let sids = times.map { time in TwilioFace.verificationSids(now: { time }).make() }
        #expect(sids.allSatisfy(TwilioFace.isVerificationSid))
        #expect(sids[0] < sids[1])
        #expect(sids[0].range(of: "^VE[0-9a-f]{32}$", options: .regularExpression) != nil)
        #expect(!TwilioFace.isVerificationSid("vf_0000000000000000000000000000") && !TwilioFace.isVerificationSid("VE12"))
        let attempt = TwilioFace.attemptSid(sids[0], index: 0)
        #expect(attempt.range(of: "^VL[0-9a-f]{32}$", options: .regularExpression) != nil)
        #expect(attempt == TwilioFace.attemptSid(sids[0], index: 0) && attempt != TwilioFace.attemptSid(sids[0], index: 1))
        #expect(TwilioFace.date(Date(timeIntervalSince1970: 1_438_286_400.25)) == "2015-07-30T20:00:00Z")
    }

    @Test("Twilio's channel names map onto Tacit's steps and back")
    func channels() {
        for channel in TwilioChannel.allCases { #expect(TwilioChannel(channel.channel) == channel) }
        #expect(TwilioChannel.call.channel == .voice && TwilioChannel.sna.channel == .silentAuth)
    }
}
