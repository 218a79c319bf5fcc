import Foundation
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// Every verification a face shows carries that face's id form: a face shows only the
/// verifications it started, so no Vonage UUID answers through the Twilio face, no `VE…`
/// sid through the Vonage face, and no `/v1` id through either, whatever the route.
@Suite("Faces: one face, one id form", .timeLimit(.minutes(1)))
struct FaceIdFormTests {
    struct Faces {
        var vonage: VonageClient
        var twilio: TwilioCalls
        var v1: TestClient
    }

    /// Application A as its Vonage, Twilio and `/v1` credentials reach it.
    func faces(_ app: TestApplication, _ client: TestClient) async throws -> Faces {
        let tenants = try await VonageFaceFixtures.make(app)
        let issued = tenants.credentialsA
        let twilio = TwilioCalls(client: client, accountSid: issued.twilioAccountSid, authToken: issued.twilioAuthToken,
                                 serviceSid: issued.twilioServiceSid, application: tenants.a, apiKey: issued.apiKey)
        return Faces(vonage: try tenants.client(client, app: app), twilio: twilio, v1: client.bearer(issued.apiKey))
    }

    static func isSid(_ text: String?) -> Bool {
        guard let text, text.hasPrefix("VE"), text.count == 34 else { return false }
        return text.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    @Test("pending through the Vonage face, the Twilio face never shows its UUID: a start is 60212, a check by To 404")
    func vonageStartedThroughTwilio() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let faces = try await faces(app, client)
            let uuid = try #require(try await faces.vonage.start("99012345672", ["sms"]).string("request_id"))
            let start = try await faces.twilio.start("+99012345672")
            #expect(start.status == 429 && start.json["code"] as? Int == 60212, "\(start.status) \(start.text)")
            #expect(!start.text.contains(uuid))
            let check = try await faces.twilio.check(to: "+99012345672", code: "0000")
            #expect(check.status == 404 && !check.text.contains(uuid))
            let hex = uuid.replacingOccurrences(of: "-", with: "")
            for sid in [uuid, "VE" + hex] {
                #expect(try await faces.twilio.fetch(sid).status == 404)
                #expect(try await faces.twilio.check(sid: sid, code: "0000").status == 404)
                #expect(try await faces.twilio.update(sid, status: "canceled").status == 404)
            }
            #expect(try await app.store.verification(id: uuid)?.workflow.count == 1)
            #expect(try await app.store.verification(id: uuid)?.failedAttempts == 0)
        }
    }

    @Test("pending through the Twilio face, the Vonage face's 409 names no sid and its routes answer 404")
    func twilioStartedThroughVonage() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let faces = try await faces(app, client)
            let sid = try #require(try await faces.twilio.start("+99012345674").string("sid"))
            #expect(Self.isSid(sid))
            let again = try await faces.vonage.start("99012345674", ["sms"])
            #expect(again.status == 409 && again.string("request_id") == nil && !again.text.contains(sid))
            #expect(try await faces.vonage.send("POST", "/v2/verify/\(sid)", json: ["code": "0000"]).status == 404)
            #expect(try await faces.vonage.send("DELETE", "/v2/verify/\(sid)").status == 404)
        }
    }

    @Test("pending through /v1, neither face shows its id; each face shows its own verification in its own form")
    func v1StartedThroughFaces() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let faces = try await faces(app, client)
            let body = #"{"phone_number":"+99012345676","workflow":[{"channel":"sms"}]}"#
            let id = try #require(try await faces.v1.post("/v1/verifications", raw: body).string("request_id"))
            let twilio = try await faces.twilio.start("+99012345676")
            #expect(twilio.status == 429 && !twilio.text.contains(id))
            #expect(try await faces.twilio.check(to: "+99012345676", code: "0000").status == 404)
            let vonage = try await faces.vonage.start("99012345676", ["sms"])
            #expect(vonage.status == 409 && vonage.string("request_id") == nil && !vonage.text.contains(id))

            let own = try await faces.twilio.start("+99012345678")
            #expect(own.status == 201 && Self.isSid(own.string("sid")))
            let again = try await faces.twilio.start("+99012345678", channel: "call")
            #expect(again.status == 201 && again.string("sid") == own.string("sid"))
        }
    }
}
