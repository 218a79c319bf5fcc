import Foundation
import Testing
import TacitCore
import TacitServer
import TacitTesting
@testable import TacitProvidersTwilio

/// How Twilio's answers become delivery attempts: the sid on acceptance, and a refusal
/// that is permanent only when the number itself is the problem.
@Suite("Twilio answers: the sid, permanent number errors and transient failures")
struct TwilioAnswerTests {
    static let sid = "SM" + String(repeating: "ab", count: 16)

    /// A Twilio that never answers: the connection is refused or times out.
    struct Unreachable: OutboundHTTPClient {
        let code: String
        func send(_ request: OutboundRequest) async throws(OutboundHTTPError) -> OutboundResponse {
            throw OutboundHTTPError(code: code)
        }
    }

    static func result(_ answer: @escaping RecordingHTTPClient.Answer, channel: Channel = .sms) async -> DeliveryResult {
        await result(over: RecordingHTTPClient(answer: answer), channel: channel)
    }

    static func result(over http: any OutboundHTTPClient, channel: Channel = .sms) async -> DeliveryResult {
        await TwilioSender(settings: TwilioRequestTests.settings, http: http).send(TwilioRequestTests.message(channel))
    }

    static func error(_ status: Int, code: Int, message: String) -> OutboundResponse {
        let body = #"{"code": \#(code), "message": "\#(message)", "more_info": "https://www.twilio.com/docs/errors/\#(code)", "status": \#(status)}"#
        return OutboundResponse(status: status, headers: ["content-type": "application/json"], body: Array(body.utf8))
    }

    @Test("a 201 is accepted with the message's sid as the provider's message id")
    func accepted() async {
        let result = await Self.result { _ in
            OutboundResponse(status: 201, body: Array(#"{"sid": "\#(Self.sid)", "status": "queued", "to": "+447700900123"}"#.utf8))
        }
        #expect(result.isAccepted)
        #expect(result.acceptedBy == .accepted(by: "twilio", messageId: Self.sid))
    }

    @Test("a call's CA sid is its message id; a 201 without a sid is a transient refusal")
    func callSidAndMissingSid() async {
        let call = "CA" + String(repeating: "cd", count: 16)
        let placed = await Self.result({ _ in OutboundResponse(status: 201, body: Array(#"{"sid": "\#(call)"}"#.utf8)) }, channel: .voice)
        #expect(placed.acceptedBy?.messageId == call)
        let odd = await Self.result { _ in OutboundResponse(status: 201, body: Array(#"{"sid": "+447700900123"}"#.utf8)) }
        #expect(odd.refusal == .transient)
    }

    @Test("number errors are permanent with a reason of their own, and their detail never quotes Twilio's message", arguments: [
        (21211, "invalid_number"), (21614, "unreachable_number"), (21610, "number_opted_out"), (21408, "destination_not_permitted"),
    ])
    func permanent(code: Int, reason: String) async {
        let result = await Self.result { _ in Self.error(400, code: code, message: "The 'To' number +447700900123 is not valid.") }
        #expect(result.refusal == .permanent)
        #expect(result.reason == reason)
        let attempt = result.attempts.first
        #expect(attempt?.errorCode == String(code))
        #expect(attempt?.detail?.contains("447700900123") == false)
        #expect(attempt?.detail?.isEmpty == false)
    }

    @Test("a 5xx, throttling, an account error and no answer at all are transient, so the next provider is tried")
    func transient() async {
        let answers: [RecordingHTTPClient.Answer] = [
            { _ in Self.error(500, code: 20500, message: "Internal Server Error") },
            { _ in OutboundResponse(status: 503, body: Array("<html>busy</html>".utf8)) },
            { _ in Self.error(429, code: 20429, message: "Too Many Requests") },
            { _ in Self.error(401, code: 20003, message: "Authenticate") },
        ]
        var results: [DeliveryResult] = []
        for answer in answers { results.append(await Self.result(answer)) }
        for code in ["connection_refused", "timeout"] { results.append(await Self.result(over: Unreachable(code: code))) }
        for result in results {
            #expect(result.refusal == .transient)
            #expect(result.attempts.map(\.provider) == ["twilio"])
        }
        let refused = await Self.result(over: Unreachable(code: "connection_refused"))
        #expect(refused.reason == "provider_unreachable")
        #expect(refused.attempts.first?.detail == "no answer (connection_refused)")
    }

    @Test("the request carries the configured timeout, so a silent Twilio fails over instead of holding the step")
    func timeout() async throws {
        let http = RecordingHTTPClient()
        _ = await TwilioSender(settings: TwilioRequestTests.settings, http: http, timeout: 4).send(TwilioRequestTests.message(.sms))
        #expect(try #require(http.requests.first).timeout == 4)
    }
}
