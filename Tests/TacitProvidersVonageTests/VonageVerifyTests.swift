import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitTesting
@testable import TacitServer
@testable import TacitProvidersVonage

@Suite("Vonage Verify v2 silent-auth requests and answers")
struct VonageVerifyTests {
    typealias Fixture = VonageVerifyFixture

    @Test("a start is a silent_auth workflow with coverage_check for the number's digits, signed with the application's JWT")
    func startShape() async throws {
        let client = RecordingHTTPClient { _ in Fixture.started }
        let (adapter, publicKey) = try await Fixture.adapter(client)
        let answer = await adapter.begin(Fixture.request())
        #expect(answer == .issuedAtProvider(SilentChallenge(checkURL: Fixture.checkURL, provider: "vonage",
                                                            reference: Fixture.requestId), events: []))
        let start = try #require(client.requests.last)
        #expect(start.method == "POST" && start.url.path == "/v2/verify")
        #expect(start.headers.contains { $0.0 == "Content-Type" && $0.1 == "application/json" })
        let header = try #require(start.headers.first { $0.0 == "Authorization" }?.1)
        let claims = try JWT.verify(token: String(header.dropFirst("Bearer ".count)), publicKey: publicKey, now: Fixture.now)
        #expect(claims["application_id"] == .string(Fixture.applicationId) && claims["exp"] == .int(1_796_111_398 + 900))
        let body = try #require(try JSONParser.parse(start.body).objectValue)
        #expect(body["brand"] == .string("Tacit"))
        #expect(body["workflow"] == .array([.object(["channel": .string("silent_auth"), "to": .string("447700900123"),
                                                     "coverage_check": .bool(true)])]))
        let ref = try #require(body["client_ref"]?.stringValue)
        #expect(ref.count <= 40 && ref.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        #expect(VonageClientReference.reference(ref) == CallbackReference(verificationId: "vf_0190abcdef12-Ab_Cd3xYz9", step: 0))
    }

    @Test("a network Verify can't check is no coverage; any other refusal is an outage", arguments: [
        (Fixture.problem(412, "Network not supported"), SilentFailure.noCoverage),
        (Fixture.problem(422, "Invalid params"), .noCoverage),
        (Fixture.json(202, #"{"request_id":"\#(Fixture.requestId)"}"#), .noCoverage),
        (Fixture.problem(409, "Conflict"), .unavailable), (Fixture.problem(429, "Rate Limit Hit"), .unavailable),
        (Fixture.problem(401, "Unauthorized"), .unavailable), (Fixture.problem(500, "Internal error"), .unavailable),
        (Fixture.json(202, #"{"request_id":"../x","check_url":"\#(Fixture.checkURL)"}"#), .unavailable),
    ])
    func startRefusals(response: OutboundResponse, failure: SilentFailure) async throws {
        let (adapter, _) = try await Fixture.adapter(RecordingHTTPClient { _ in response })
        #expect(await adapter.begin(Fixture.request()) == .failed(failure, events: []))
    }

    @Test("a start that gets no answer is an outage")
    func startTimeout() async throws {
        let (adapter, _) = try await Fixture.adapter(RecordingHTTPClient { _ throws(OutboundHTTPError) in throw OutboundHTTPError(code: "timeout") })
        #expect(await adapter.begin(Fixture.request()) == .failed(.unavailable, events: []))
    }

    @Test("the device's code is checked against the request Tacit started, and completed is the match")
    func checkShape() async throws {
        let client = RecordingHTTPClient { _ in Fixture.completed }
        let (adapter, _) = try await Fixture.adapter(client)
        let submission = SilentSubmission(reference: Fixture.requestId, deviceCode: "si9sfG", phoneNumber: "+447700900123")
        #expect(await adapter.verdict(for: submission) == SilentProviderVerdict(result: .match))
        let check = try #require(client.requests.last)
        #expect(check.method == "POST" && check.url.path == "/v2/verify/\(Fixture.requestId)")
        #expect(check.headers.contains { $0.0 == "Authorization" && $0.1.hasPrefix("Bearer ey") })
        #expect(String(decoding: check.body, as: UTF8.self) == #"{"code":"si9sfG"}"#)
    }

    @Test("an invalid code is a mismatch, a gone or unknown request is expired, and anything else gives no verdict", arguments: [
        (Fixture.problem(400, "Invalid Code"), SilentProviderVerdict(result: .noMatch) as SilentProviderVerdict?),
        (Fixture.problem(410, "Invalid Code"), SilentProviderVerdict(result: .expired)),
        (Fixture.problem(404, "Not Found"), SilentProviderVerdict(result: .expired)),
        (Fixture.problem(409, "Conflict"), nil), (Fixture.problem(429, "Rate Limit Hit"), nil),
        (Fixture.problem(500, "Internal error"), nil),
        (Fixture.json(200, #"{"request_id":"aaaaaaaa-0000-4000-8000-000000000000","status":"completed"}"#), nil),
    ])
    func checkAnswers(response: OutboundResponse, expected: SilentProviderVerdict?) async throws {
        let (adapter, _) = try await Fixture.adapter(RecordingHTTPClient { _ in response })
        let submission = SilentSubmission(reference: Fixture.requestId, deviceCode: "si9sfG", phoneNumber: "+447700900123")
        #expect(await adapter.verdict(for: submission) == expected)
    }

    @Test("a code or a request id not of Verify's shape never reaches Verify")
    func foreignInput() async throws {
        let client = RecordingHTTPClient { _ in Fixture.completed }
        let (adapter, _) = try await Fixture.adapter(client)
        let badCode = SilentSubmission(reference: Fixture.requestId, deviceCode: "sa_../../x", phoneNumber: "+447700900123")
        #expect(await adapter.verdict(for: badCode) == SilentProviderVerdict(result: .noMatch))
        let badId = SilentSubmission(reference: "../../templates", deviceCode: "si9sfG", phoneNumber: "+447700900123")
        #expect(await adapter.verdict(for: badId) == nil)
        #expect(client.requests.isEmpty)
    }

    @Test("client_ref survives the escaping for every id shape, and text Tacit did not write names nothing", arguments: [
        "vf_0190abcdef12AbCd", "vf_0190abcdef12-_Zz", "ZZZ",
    ])
    func clientReference(id: String) throws {
        let text = try #require(VonageClientReference.text(verificationId: id, step: 2))
        #expect(VonageClientReference.reference(text) == CallbackReference(verificationId: id, step: 2))
        #expect(VonageClientReference.reference("Z4") == nil)
        #expect(VonageClientReference.reference(String(repeating: "a", count: 41)) == nil)
    }

    @Test("an id too long to escape within Verify's 40 characters goes without a client_ref")
    func clientReferenceTooLong() {
        #expect(VonageClientReference.text(verificationId: "vf_" + String(repeating: "_", count: 20), step: 0) == nil)
    }
}
