import Foundation
import Testing
import TacitCore
import TacitTesting
@testable import TacitServer
@testable import TacitProvidersTwilio

@Suite("Twilio Verify SNA: the create with Channel=sna, and the check with To alone")
struct TwilioSNATests {
    static let service = "VA" + String(repeating: "3b", count: 16)
    static let sid = "VE" + String(repeating: "5c", count: 16)
    static let settings = TwilioVerifySettings(accountSid: "AC" + String(repeating: "0a", count: 16), authToken: "secret-token",
                                               serviceSid: service, verifyURL: "http://127.0.0.1:9/")
    static let request = SilentCheckRequest(verificationId: "vf_1", step: 0, phoneNumber: "+447400123456",
                                            expiresAt: Date(timeIntervalSince1970: 1_796_000_060))

    static func json(_ status: Int, _ text: String) -> OutboundResponse {
        OutboundResponse(status: status, body: Array(text.utf8))
    }

    @Test("the create posts To and Channel=sna to the service's Verifications, and sna.url becomes the device's check URL")
    func create() async throws {
        let http = RecordingHTTPClient { _ in Self.json(201, #"{"sid":"\#(Self.sid)","status":"pending","channel":"sna","sna":{"url":"http://127.0.0.1:9/sna/x?data=1"}}"#) }
        let answer = await TwilioSNA(settings: Self.settings, http: http).begin(Self.request)
        #expect(answer == .issuedAtProvider(SilentChallenge(checkURL: "http://127.0.0.1:9/sna/x?data=1", provider: "twilio", reference: Self.sid),
                                            events: []))
        let sent = try #require(http.requests.first)
        #expect(sent.url.absoluteString == "http://127.0.0.1:9/v2/Services/\(Self.service)/Verifications")
        #expect(String(decoding: sent.body, as: UTF8.self) == "To=%2B447400123456&Channel=sna")
        let basic = Data("\(Self.settings.accountSid):secret-token".utf8).base64EncodedString()
        #expect(sent.headers.contains { $0.0 == "Authorization" && $0.1 == "Basic \(basic)" })
    }

    @Test("a number SNA can't check is no coverage; a 5xx or throttling is an outage", arguments: [
        (400, 60540, SilentFailure.noCoverage), (500, 20500, .unavailable), (429, 20429, .unavailable),
    ])
    func createRefused(status: Int, code: Int, failure: SilentFailure) async {
        let http = RecordingHTTPClient { _ in Self.json(status, #"{"code":\#(code),"message":"m","status":\#(status)}"#) }
        #expect(await TwilioSNA(settings: Self.settings, http: http).begin(Self.request) == .failed(failure, events: []))
    }

    @Test("the check posts To alone, no Code, and approved is the match", arguments: [
        (#"{"sid":"\#(sid)","status":"approved","sna_attempts_error_codes":[]}"#, SilentVerdict.Result.match),
        (#"{"sid":"\#(sid)","status":"pending","sna_attempts_error_codes":[{"attempt_sid":"VL1","code":60500}]}"#, .noMatch),
        (#"{"sid":"\#(sid)","status":"pending","sna_attempts_error_codes":[{"attempt_sid":"VL1","code":60510}]}"#, .notCellular),
    ])
    func check(body: String, result: SilentVerdict.Result) async throws {
        let http = RecordingHTTPClient { _ in Self.json(200, body) }
        let submission = SilentSubmission(reference: Self.sid, deviceCode: nil, phoneNumber: "+447400123456")
        #expect(await TwilioSNA(settings: Self.settings, http: http).verdict(for: submission) == SilentProviderVerdict(result: result))
        let sent = try #require(http.requests.first)
        #expect(sent.url.path == "/v2/Services/\(Self.service)/VerificationCheck")
        #expect(String(decoding: sent.body, as: UTF8.self) == "To=%2B447400123456")
    }

    @Test("an answer about another verification of the number, or a 404, is no verdict")
    func foreignOrGone() async {
        let other = "VE" + String(repeating: "9d", count: 16)
        let submission = SilentSubmission(reference: Self.sid, deviceCode: nil, phoneNumber: "+447400123456")
        let foreign = RecordingHTTPClient { _ in Self.json(200, #"{"sid":"\#(other)","status":"approved"}"#) }
        #expect(await TwilioSNA(settings: Self.settings, http: foreign).verdict(for: submission) == nil)
        let gone = RecordingHTTPClient { _ in Self.json(404, #"{"code":20404,"status":404}"#) }
        #expect(await TwilioSNA(settings: Self.settings, http: gone).verdict(for: submission) == nil)
    }

    @Test("an account set up for SNA alone sends no messages, and a malformed service SID names its setting")
    func settingsShape() throws {
        let values = ["TACIT_TWILIO_ACCOUNT_SID": Self.settings.accountSid, "TACIT_TWILIO_AUTH_TOKEN": "secret-token",
                      "TACIT_TWILIO_VERIFY_SERVICE_SID": Self.service]
        #expect(try TwilioSettings(ProviderSettings(values), publicURL: nil) == nil)
        #expect(try TwilioVerifySettings(ProviderSettings(values))?.verifyURL == "https://verify.twilio.com")
        var bad = values
        bad["TACIT_TWILIO_VERIFY_SERVICE_SID"] = "VA123"
        #expect(throws: ProviderSetupError.self) { try TwilioVerifySettings(ProviderSettings(bad)) }
    }
}
