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

    @Test("the create's charge_amount and charge_currency are kept as the check's price", arguments: [
        (#""charge_amount":1,"charge_currency":"API""#, "1", "API"),
        (#""charge_amount":0.0079,"charge_currency":"EUR""#, "0.0079", "EUR"),
        (#""charge_amount":"0.5","charge_currency":"GBP""#, "0.5", "GBP"),
        (#""charge_amount":1,"charge_currency":"credits""#, nil, nil),
        (#""charge_amount":-1e40,"charge_currency":"API""#, nil, nil),
        (#""charge_currency":"API""#, nil, nil),
    ])
    func createPrice(fields: String, price: String?, currency: String?) {
        let body = #"{"check_id":"\#(TruIDFixture.checkId)","status":"ACCEPTED",\#(fields),"#
            + #""_links":{"check_url":{"href":"\#(TruIDFixture.checkURL)"}}}"#
        guard case .issuedAtProvider(let challenge, _) = TruIDAnswer.created(TruIDFixture.json(201, body)) else {
            Issue.record("no check issued")
            return
        }
        #expect(challenge.price == price && challenge.currency == currency)
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
        #expect(verdict == SilentProviderVerdict(result: .match, simChanged: false, simChangeWindowMinutes: 10_080))
        let patch = try #require(client.requests.last)
        #expect(patch.method == "PATCH")
        #expect(patch.url.path == "/subscriber_check/v0.2/checks/\(TruIDFixture.checkId)")
        #expect(patch.headers.contains { $0.0 == "Content-Type" && $0.1 == "application/json-patch+json" })
        #expect(String(decoding: patch.body, as: UTF8.self) == #"[{"op":"add","path":"/code","value":"94dae426fg"}]"#)
    }

    @Test("match and no_sim_change become the verdict and the SIM-change signal over tru.ID's own 7 days", arguments: [
        (true, true, SilentProviderVerdict(result: .match, simChanged: false, simChangeWindowMinutes: 10_080)),
        (true, false, SilentProviderVerdict(result: .match, simChanged: true, simChangeWindowMinutes: 10_080)),
        (false, true, SilentProviderVerdict(result: .noMatch, simChanged: false, simChangeWindowMinutes: 10_080)),
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

    @Test("the verification's SIM-swap window goes to tru.ID as period, in minutes within tru.ID's range",
          arguments: [(1, 60), (3, 180), (2400, 144_000), (Int.max, 540_000)])
    func periodSent(hours: Int, minutes: Int) async throws {
        let client = TruIDFixture.client { _ in TruIDFixture.created }
        var request = TruIDFixture.request()
        request.simSwapMaxAgeHours = hours
        _ = await provider(client).begin(request)
        let create = try #require(client.requests.last)
        #expect(String(decoding: create.body, as: UTF8.self) == #"{"period":\#(minutes),"phone_number":"447700900123"}"#)
    }

    @Test("the SIM-change signal answers for the window asked for, reading sim_change_within as well as no_sim_change",
          arguments: [
              // tru.ID took the 60-minute period: the change 2 hours ago is outside it.
              (#"{"no_sim_change":true,"no_sim_change_period":60}"#, 60, false as Bool?),
              // tru.ID answered for its default 7 days: the 1-2 h bucket is past a 1-hour window, so it can't tell.
              (#"{"no_sim_change":false,"no_sim_change_period":10080,"sim_change_within":120}"#, 60, nil),
              // The same answer decides a 3-hour window: the bucket ends inside it.
              (#"{"no_sim_change":false,"no_sim_change_period":10080,"sim_change_within":120}"#, 180, true),
              // Without no_sim_change_period, no_sim_change answers for the period the check was created with.
              (#"{"no_sim_change":false}"#, 180, true),
              (#"{"no_sim_change":true,"sim_change_within":60}"#, 60, true),
          ] as [(String, Int, Bool?)])
    func window(fields: String, minutes: Int, changed: Bool?) {
        let body = #"{"status":"COMPLETED","match":true,"#.dropLast(0) + fields.dropFirst()
        let verdict = TruIDAnswer.verdict(TruIDFixture.json(200, String(body)), windowMinutes: minutes)
        #expect(verdict == SilentProviderVerdict(result: .match, simChanged: changed, simChangeWindowMinutes: minutes))
    }

    @Test("the verdict asks about the window the submission carries")
    func windowFromSubmission() async throws {
        let client = TruIDFixture.client { _ in
            TruIDFixture.json(200, #"{"status":"COMPLETED","match":true,"no_sim_change":false,"#
                                  + #""no_sim_change_period":10080,"sim_change_within":120}"#)
        }
        let submission = SilentSubmission(reference: TruIDFixture.checkId, deviceCode: "94dae426fg",
                                          phoneNumber: "+447700900123", simSwapMaxAgeHours: 1)
        #expect(await provider(client).verdict(for: submission)
                == SilentProviderVerdict(result: .match, simChanged: nil, simChangeWindowMinutes: 60))
    }
}
