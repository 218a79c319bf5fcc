import Foundation
import Testing
import TacitCore
import TacitTesting
@testable import TacitServer
@testable import TacitProvidersTruID

@Suite("tru.ID SubscriberCheck requests and answers")
struct TruIDCheckTests {
    private func provider(_ client: RecordingHTTPClient) -> TruIDSubscriberCheck {
        TruIDSubscriberCheck(settings: TruIDFixture.settings, http: client,
                             tokens: TruIDTokens(settings: TruIDFixture.settings, http: client, clock: ManualClock()))
    }

    @Test("a check is created with the number's digits and the bearer token, and its check_url goes to the device")
    func createShape() async throws {
        let client = TruIDFixture.client { _ in TruIDFixture.created }
        let answer = await provider(client).begin(TruIDFixture.request())
        #expect(answer == .issuedAtProvider(SilentChallenge(checkURL: TruIDFixture.checkURL, provider: "truid",
                                                            reference: TruIDFixture.checkId), events: []))
        let create = try #require(client.requests.last)
        #expect(create.method == "POST")
        #expect(create.url.path == "/subscriber_check/v0.2/checks")
        #expect(create.headers.contains { $0.0 == "Authorization" && $0.1 == "Bearer 2YotnFZFEjr1zCsicMWpAA" })
        #expect(create.headers.contains { $0.0 == "Content-Type" && $0.1 == "application/json" })
        #expect(String(decoding: create.body, as: UTF8.self) == #"{"phone_number":"447700900123"}"#)
    }

    @Test("an operator tru.ID can't reach is no coverage; a server error is an outage", arguments: [
        (400, "mno_not_supported", SilentFailure.noCoverage), (501, "mno_redirect_unsupported", .noCoverage),
        (500, "internal", .unavailable), (429, "too_many_requests", .unavailable),
    ])
    func createRefusals(status: Int, slug: String, failure: SilentFailure) async {
        let body = #"{"type":"https://developer.tru.id/docs/reference/api-errors#\#(slug)","title":"t","detail":"d"}"#
        let client = TruIDFixture.client { _ in TruIDFixture.json(status, body) }
        #expect(await provider(client).begin(TruIDFixture.request()) == .failed(failure, events: []))
    }

    @Test("the device's code is PATCHed onto the check Tacit created, as a JSON Patch")
    func patchShape() async throws {
        let client = TruIDFixture.client { _ in TruIDFixture.completed(match: true, noSimChange: true) }
        let submission = SilentSubmission(reference: TruIDFixture.checkId, deviceCode: "94dae426fg", phoneNumber: "+447700900123")
        let verdict = await provider(client).verdict(for: submission)
        #expect(verdict == SilentProviderVerdict(result: .match, simChanged: false))
        let patch = try #require(client.requests.last)
        #expect(patch.method == "PATCH")
        #expect(patch.url.path == "/subscriber_check/v0.2/checks/\(TruIDFixture.checkId)")
        #expect(patch.headers.contains { $0.0 == "Content-Type" && $0.1 == "application/json-patch+json" })
        #expect(String(decoding: patch.body, as: UTF8.self) == #"[{"op":"add","path":"/code","value":"94dae426fg"}]"#)
    }

    @Test("match and no_sim_change become the verdict and the SIM-change signal", arguments: [
        (true, true, SilentProviderVerdict(result: .match, simChanged: false)),
        (true, false, SilentProviderVerdict(result: .match, simChanged: true)),
        (false, true, SilentProviderVerdict(result: .noMatch, simChanged: false)),
    ])
    func verdicts(match: Bool, noSimChange: Bool, expected: SilentProviderVerdict) {
        #expect(TruIDAnswer.verdict(TruIDFixture.completed(match: match, noSimChange: noSimChange)) == expected)
    }

    @Test("an expired check, a non-mobile IP and an unknown check are told apart")
    func otherAnswers() {
        #expect(TruIDAnswer.verdict(TruIDFixture.json(200, #"{"status":"EXPIRED"}"#)) == SilentProviderVerdict(result: .expired))
        #expect(TruIDAnswer.verdict(TruIDFixture.json(200, #"{"status":"ERROR","error_code":"not_mobile_ip"}"#))
                == SilentProviderVerdict(result: .notCellular))
        #expect(TruIDAnswer.verdict(TruIDFixture.json(404, #"{"type":"x#check_not_found"}"#)) == nil)
    }

    @Test("a check id that is not tru.ID's shape is never put in a path")
    func foreignReference() async {
        let client = TruIDFixture.client { _ in TruIDFixture.completed(match: true, noSimChange: true) }
        let submission = SilentSubmission(reference: "../../oauth2", deviceCode: "94dae426fg", phoneNumber: "+447700900123")
        #expect(await provider(client).verdict(for: submission) == nil)
        #expect(!client.requests.contains { $0.method == "PATCH" })
    }
}
