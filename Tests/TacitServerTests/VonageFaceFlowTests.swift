import Foundation
import TacitCrypto
@testable import TacitFaceVonage
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// The face's check, next_workflow and cancel, with Vonage's statuses: 400 for a wrong
/// code, 410 after Vonage's three, 409 with the in-flight request_id, 404 when done.
@Suite("Vonage face: flows", .timeLimit(.minutes(1)))
struct VonageFaceFlowTests {
    @Test("wrong codes answer 400 twice, then the third ends the workflow with 410, and a right code after it is 410 too")
    func wrongCodesUpToTheLimit() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let vonage = try await VonageFaceFixtures.make(app).client(client, app: app)
            let id = try #require(try await vonage.start("99012345672", ["sms"]).string("request_id"))
            let code = try #require(try await client.latestCode("+99012345672"))
            let wrong = code == "0000" ? "1111" : "0000"
            for _ in 0..<2 {
                let reply = try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": wrong])
                #expect(reply.status == 400)
                #expect(reply.string("title") == "Invalid Code")
            }
            let last = try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": wrong])
            #expect(last.status == 410)
            #expect(last.string("detail") == "An incorrect code has been provided too many times. Workflow terminated.")
            #expect(try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": code]).status == 410)
            #expect(try await app.store.verification(id: id)?.status == .failed)
        }
    }

    @Test("a second start to a number in flight is 409 with the in-flight request_id; a right code completes it")
    func concurrentStart() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let vonage = try await VonageFaceFixtures.make(app).client(client, app: app)
            let id = try #require(try await vonage.start("99012345672", ["sms"]).string("request_id"))
            let again = try await vonage.start("99012345672", ["voice"])
            #expect(again.status == 409)
            #expect(again.string("request_id") == id)
            #expect(again.string("title") == "Conflict")
            let code = try #require(try await client.latestCode("+99012345672"))
            let done = try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": code])
            #expect(done.status == 200)
            #expect(done.string("request_id") == id && done.string("status") == "completed")
            #expect(try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": code]).status == 404)
        }
    }

    @Test("next_workflow moves to the next channel with 200, then answers 409 at the last; past the first channel cancel is 409 and changes nothing")
    func nextThenNoCancel() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let vonage = try await VonageFaceFixtures.make(app).client(client, app: app)
            let id = try #require(try await vonage.start("99012345674", ["sms", "voice"]).string("request_id"))
            let next = try await vonage.send("POST", "/v2/verify/\(id)/next_workflow")
            #expect(next.status == 200)
            #expect(try await app.store.verification(id: id)?.activeChannel == .voice)
            let last = try await vonage.send("POST", "/v2/verify/\(id)/next_workflow")
            #expect(last.status == 409)
            #expect(last.string("detail") == "There are no more events left to trigger.")
            await app.advance(by: VonageCancelWindow.opensAfter)
            let before = try #require(try await app.store.verification(id: id))
            let refused = try await vonage.send("DELETE", "/v2/verify/\(id)")
            #expect(refused.status == 409 && refused.string("title") == "Conflict")
            #expect(try await app.store.verification(id: id) == before)
        }
    }

    @Test("cancel within Vonage's first 30 s is 409 and changes nothing; after them it is 204, again 204, and the id is then gone")
    func cancelWindow() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let vonage = try await VonageFaceFixtures.make(app).client(client, app: app)
            let id = try #require(try await vonage.start("99012345674", ["sms", "voice"]).string("request_id"))
            let before = try #require(try await app.store.verification(id: id))
            await app.advance(by: VonageCancelWindow.opensAfter - 1)
            let early = try await vonage.send("DELETE", "/v2/verify/\(id)")
            #expect(early.status == 409)
            #expect(early.string("detail") == VonageProblem.cancelOutsideWindow.detail)
            #expect(try await app.store.verification(id: id) == before)
            await app.advance(by: 1)
            #expect(try await vonage.send("DELETE", "/v2/verify/\(id)").status == 204)
            #expect(try await app.store.verification(id: id)?.status == .cancelled)
            #expect(try await vonage.send("DELETE", "/v2/verify/\(id)").status == 204)
            #expect(try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": "1234"]).status == 404)
            #expect(try await vonage.send("POST", "/v2/verify/\(id)/next_workflow").status == 404)
        }
    }

    @Test("a malformed check body is 422 naming code, and counts as no attempt")
    func malformedCode() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let vonage = try await VonageFaceFixtures.make(app).client(client, app: app)
            let id = try #require(try await vonage.start("99012345672", ["sms"]).string("request_id"))
            for body: [String: Any] in [["code": "12"], ["code": "12345678901"], ["code": "12 34"], [:]] {
                let reply = try await vonage.send("POST", "/v2/verify/\(id)", json: body)
                #expect(reply.status == 422, "\(body)")
            }
            #expect(try await app.store.verification(id: id)?.failedAttempts == 0)
        }
    }

    @Test("the summary callback goes to the application's callback URL with an HS256 JWT its signature secret verifies, bound to the body")
    func summaryCallback() async throws {
        try await TestApplication.test(.inProcess, configure: { configuration, _ in
            configuration.webhooks.allowPrivateTargets = true
        }) { app, client in
            let tenants = try await VonageFaceFixtures.make(app)
            let store = try vonageFixture(app.store as? any VerificationStore & KeyStore & ApplicationStore)
            let secrets = try await ServerSecrets.load(configuration: app.configuration, store: store)
            var change = ApplicationChange()
            change.faceSettings["vonage-callback-url"] = "http://127.0.0.1:9/vonage/status"
            change.faceSettings["vonage-signature-secret"] = String(repeating: "k", count: 40)
            _ = try await ApplicationManager.open(store: store).set(id: tenants.a.id, change) { try secrets.fieldProtection.seal($0) }
            let vonage = try tenants.client(client, app: app)
            let id = try #require(try await vonage.start("99012345672", ["sms"], extra: ["client_ref": "order42"]).string("request_id"))
            let code = try #require(try await client.latestCode("+99012345672"))
            #expect(try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": code]).status == 200)
            await app.httpClient.waitFor(1)
            let sent = try #require(app.httpClient.requests.first { $0.url.path == "/vonage/status" })
            let authorization = try #require(sent.headers.first { $0.0 == "Authorization" }?.1)
            let token = String(authorization.dropFirst("Bearer ".count))
            let claims = try JWT.verify(token: token, secret: Array(change.faceSettings["vonage-signature-secret"]!.utf8), now: app.clock.now())
            #expect(claims["payload_hash"]?.stringValue == Hex.encode(SHA256.hash(sent.body)))
            let body = try #require(try JSONSerialization.jsonObject(with: Data(sent.body)) as? [String: Any])
            #expect(body["type"] as? String == "summary" && body["request_id"] as? String == id && body["status"] as? String == "completed")
            #expect(body["client_ref"] as? String == "order42")
            #expect((body["workflow"] as? [[String: Any]])?.first?["status"] as? String == "completed")
            #expect(!String(decoding: sent.body, as: UTF8.self).contains("99012345672") && !String(decoding: sent.body, as: UTF8.self).contains(code))
        }
    }
}
