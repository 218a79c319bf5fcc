import Foundation
import Testing
import TacitCore
import TacitHTTP
import TacitServer
import TacitStore
import TacitTesting

/// The callback routes as every provider gets them: the provider's ``ProviderCallback``
/// verifies and reads, the server refuses replays and applies reports to the active step.
@Suite("Provider callbacks")
struct CallbackTests {
    /// A provider whose callbacks are signed by an `X-Signature: ok` header and whose body
    /// is `<status> <reference>`; `secret` nil is a provider not configured.
    struct Signed: ProviderCallback {
        var path = "/v1/callbacks/signed"
        var configured = true

        func read(_ request: HTTPRequest, context: CallbackContext) throws(CallbackRejection) -> CallbackReading {
            guard configured else { throw .unconfigured }
            switch request.header("x-signature") {
            case "ok": break
            case "old": throw .stale
            default: throw .badSignature
            }
            let words = String(decoding: request.body, as: UTF8.self).split(separator: " ").map(String.init)
            guard words.count == 2 else { throw .malformed }
            let report = ProviderReport(provider: "signed", reference: CallbackReference(words[1]), status: words[0],
                                        failures: ["failed"], deliveries: ["delivered"], messageId: "m-1")
            return CallbackReading(.delivery(report), replayKey: "signed:" + words.joined(separator: " "),
                                   replayExpiresAt: context.now.addingTimeInterval(60))
        }
    }

    func withApplication(_ callback: Signed = Signed(),
                         _ body: (TestClient, InMemoryStore) async throws -> Void) async throws {
        let store = InMemoryStore()
        // The provider's sender recorded the message its callbacks name (`m-1`).
        try await TestApplication.test(.inProcess, store: store, sender: .accepting("signed", messageId: "m-1"),
                                       configure: { _, dependencies in
            dependencies.callbacks = [callback]
        }) { _, client in
            try await body(client, store)
        }
    }

    func start(_ client: TestClient) async throws -> String {
        // Outside the virtual range, so the test's sender takes the message and records its id.
        let body = #"{"phone_number":"+447911123456","workflow":[{"channel":"sms"},{"channel":"voice"}]}"#
        let id = try #require(try await client.post("/v1/verifications", raw: body).string("request_id"))
        await client.sendApplied(id)
        return id
    }

    func post(_ client: TestClient, _ body: String, signature: String = "ok") async throws -> TestResponse {
        try await client.send("POST", "/v1/callbacks/signed", body: Data(body.utf8), headers: ["X-Signature": signature])
    }

    @Test("a verified failure report fails the active step over once; forged, stale, malformed and replayed ones are refused")
    func failure() async throws {
        try await withApplication { client, store in
            let id = try await start(client)
            let forged = try await post(client, "failed \(id):0", signature: "forged")
            #expect(forged.status == 401 && forged.string("type") == "invalid-signature")
            let stale = try await post(client, "failed \(id):0", signature: "old")
            #expect(stale.status == 401 && stale.string("type") == "stale-callback")
            #expect(try await post(client, "failed").status == 400)
            #expect(try await store.verification(id: id)?.currentStep == 0)

            #expect(try await post(client, "failed \(id):0").status == 204)
            let after = try #require(try await store.verification(id: id))
            #expect(after.workflow.map(\.status) == [.failed, .active])
            #expect(after.workflow[0].reason == "provider_failed")
            let replay = try await post(client, "failed \(id):0")
            #expect(replay.status == 409 && replay.string("type") == "replayed-callback")
        }
    }

    @Test("delivery and progress are recorded on the timeline without moving the step")
    func recorded() async throws {
        try await withApplication { client, store in
            let id = try await start(client)
            #expect(try await post(client, "queued \(id):0").status == 204)
            #expect(try await post(client, "delivered \(id):0").status == 204)
            #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.active, .unused])
            let labels = try await store.events(id: id, after: 0, limit: 100).map(\.label)
            #expect(labels.contains("provider:status") && labels.contains("provider:delivered"))
        }
    }

    @Test("a report for an unknown verification or a step no longer active is acknowledged without effect")
    func unknownReference() async throws {
        try await withApplication { client, store in
            let id = try await start(client)
            for ref in ["vf_unknown:0", "\(id):1", "garbage"] {
                #expect(try await post(client, "failed \(ref)").status == 204)
            }
            #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.active, .unused])
        }
    }

    @Test("a provider's callback without its secret answers 404, and a path no provider registered is not a callback")
    func unconfigured() async throws {
        try await withApplication(Signed(configured: false)) { client, _ in
            let answer = try await post(client, "failed vf_x:0")
            #expect(answer.status == 404 && answer.string("type") == "not-found")
            #expect(try await client.send("POST", "/v1/callbacks/other", body: Data()).status != 204)
        }
    }
}
