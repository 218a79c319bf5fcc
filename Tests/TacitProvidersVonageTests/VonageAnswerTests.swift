import Foundation
import Testing
import TacitCore
import TacitTesting
@testable import TacitProvidersVonage

/// How the SMS API's answers become delivery attempts: accepted with the message id,
/// or refused transiently (another provider may do better) or permanently (none will).
@Suite("Vonage answers: message ids, and status codes split into transient and permanent")
struct VonageAnswerTests {
    static func answer(status: String, errorText: String = "Error text with +447700900123") -> OutboundResponse {
        OutboundResponse(status: 200, body: Array(#"{"message-count":"1","messages":[{"status":"\#(status)","error-text":"\#(errorText)"}]}"#.utf8))
    }

    @Test("status 0 is accepted with Vonage's message id and its price, in euros")
    func accepted() {
        let body = #"{"message-count":"1","messages":[{"to":"447700900123","message-id":"0A0000000123ABCD1","status":"0","remaining-balance":"3.14","message-price":"0.0333","network":"23410"}]}"#
        let attempt = VonageAnswer.attempt(OutboundResponse(status: 200, body: Array(body.utf8)))
        #expect(attempt == DeliveryAttempt.accepted(by: "vonage", messageId: "0A0000000123ABCD1")
            .priced("0.0333", currency: "EUR"))
        #expect(attempt.price == "0.0333")
    }

    @Test("a status 0 without a usable message id is a transient refusal",
          arguments: [#"{"messages":[{"status":"0"}]}"#, #"{"messages":[{"status":"0","message-id":"a b"}]}"#, "not json", "{}"])
    func noMessageId(body: String) {
        let attempt = VonageAnswer.attempt(OutboundResponse(status: 200, body: Array(body.utf8)))
        #expect(attempt.refusal == .transient)
        #expect(attempt.messageId == nil)
    }

    @Test("throttling, internal errors, credentials and the account's own limits are transient, with their reason and code",
          arguments: [("1", "provider_throttled"), ("2", "provider_error"), ("4", "provider_credentials"), ("5", "provider_error"),
                      ("8", "provider_account"), ("9", "provider_quota"), ("14", "provider_credentials"), ("99", "provider_error")])
    func transient(status: String, reason: String) {
        let attempt = VonageAnswer.attempt(Self.answer(status: status))
        #expect(attempt.refusal == .transient)
        #expect(attempt.reason == reason)
        #expect(attempt.errorCode == status)
    }

    @Test("an unrecognised prefix, a barred, forbidden or de-activated number is permanent, with its reason",
          arguments: [("6", "invalid_number"), ("7", "number_blocked"), ("29", "destination_not_permitted"), ("33", "unreachable_number")])
    func permanent(status: String, reason: String) {
        let attempt = VonageAnswer.attempt(Self.answer(status: status))
        #expect(attempt.refusal == .permanent)
        #expect(attempt.reason == reason)
        #expect(attempt.errorCode == status)
        #expect(attempt.provider == "vonage")
    }

    @Test("Vonage's error text, which may quote the number, never reaches the attempt")
    func errorTextDropped() {
        let attempt = VonageAnswer.attempt(Self.answer(status: "7", errorText: "Number +447700900123 barred"))
        #expect(!(attempt.detail ?? "").contains("7700900123"))
        #expect(attempt.detail == "the number is barred")
    }

    @Test("HTTP 5xx and other HTTP refusals are transient", arguments: [500, 502, 503, 401, 429])
    func httpStatus(status: Int) {
        let attempt = VonageAnswer.attempt(OutboundResponse(status: status, body: Array("oops".utf8)))
        #expect(attempt.refusal == .transient)
        #expect(attempt.reason == "provider_error")
        #expect(attempt.detail == "HTTP \(status)")
    }

    @Test("a refused connection or a timeout is transient: provider_unreachable", arguments: ["connection_refused", "timeout"])
    func unreachable(code: String) async {
        let http = RecordingHTTPClient { _ throws(OutboundHTTPError) in throw OutboundHTTPError(code: code) }
        let result = await VonageSender(settings: VonageRequestTests.settings, http: http).send(VonageRequestTests.message())
        #expect(result.refusal == .transient)
        #expect(result.attempts.map(\.reason) == ["provider_unreachable"])
    }
}
