import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitTesting
@testable import TacitProvidersVonage

/// Voice API call events: signed as Messages API callbacks are (an HS256 JWT with the body's
/// `payload_hash`), but naming no `client_ref`, so the step comes from the event URL's `ref`.
@Suite("Vonage Voice API events on the callback route")
struct VonageVoiceEventTests {
    static let secret = VonageCallbackFixture.secret

    func withApplication(_ body: (TestClient, ManualClock, InMemoryStore) async throws -> Void) async throws {
        let store = InMemoryStore()
        let sender = RecordingSender.accepting("vonage", messageId: "63f61863-4a51-4f6b-86e1-46edebcf9356")
        try await TestApplication.test(.inProcess, store: store, sender: sender, configure: { _, dependencies in
            VonageCallbackFixture.configure(&dependencies)
        }) { app, client in
            try await body(client, app.clock, store)
        }
    }

    func post(_ client: TestClient, ref: String, _ body: String, clock: ManualClock, secret: String = secret) async throws -> Int {
        let token = JWT.sign(claims: ["iat": .int(Int64(clock.now().timeIntervalSince1970)), "jti": .string(UUID().uuidString),
                                      "payload_hash": .string(Hex.encode(SHA256.hash(body)))], secret: Array(secret.utf8))
        return try await client.send("POST", "/v1/callbacks/vonage?ref=\(ref)", body: Data(body.utf8),
                                     headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]).status
    }

    static func event(_ status: String) -> String {
        #"{"uuid":"63f61863-4a51-4f6b-86e1-46edebcf9356","conversation_uuid":"CON-f972836a-550f-45fa-956c-12a2ab5b7d22","#
            + #""status":"\#(status)","direction":"outbound","timestamp":"2026-12-01T12:00:00.000Z"}"#
    }

    @Test("a signed unanswered event for the voice step fails it at once and the next step starts")
    func unanswered() async throws {
        try await withApplication { client, clock, store in
            let id = try await VonageCallbackFixture.start(client, number: VonageCallbackFixture.sentNumber,
                                                           workflow: #"[{"channel":"voice"},{"channel":"sms"}]"#)
            #expect(try await post(client, ref: "\(id):0", Self.event("unanswered"), clock: clock) == 204)
            let after = try #require(try await store.verification(id: id))
            #expect(after.workflow.map(\.status) == [.failed, .active])
            #expect(after.workflow[0].reason == "provider_unanswered")
            let failed = try #require(try await store.events(id: id, after: 0, limit: 100).first { $0.label == "provider:failed" })
            #expect(failed.data["message_id"] == .string("63f61863-4a51-4f6b-86e1-46edebcf9356"))
        }
    }

    @Test("a signed answered event lands as delivered and the step keeps waiting for the code")
    func answered() async throws {
        try await withApplication { client, clock, store in
            let id = try await VonageCallbackFixture.start(client, number: VonageCallbackFixture.sentNumber,
                                                           workflow: #"[{"channel":"voice"},{"channel":"sms"}]"#)
            #expect(try await post(client, ref: "\(id):0", Self.event("ringing"), clock: clock) == 204)
            #expect(try await post(client, ref: "\(id):0", Self.event("answered"), clock: clock) == 204)
            let labels = try await store.events(id: id, after: 0, limit: 100).map(\.label)
            #expect(labels.contains("provider:status") && labels.contains("provider:delivered"))
            #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.active, .unused])
        }
    }

    @Test("""
        a signed event for one call posted with another verification's ref changes nothing there; \
        with its own it acts
        """)
    func refChoosesNothing() async throws {
        let sender = RecordingSender(acceptedAs: ("vonage", { "call-" + $0.verificationId }))
        try await TestApplication.test(.inProcess, store: InMemoryStore(), sender: sender,
                                       configure: { _, dependencies in
            VonageCallbackFixture.configure(&dependencies)
        }) { app, client in
            let store = try #require(app.store as? InMemoryStore)
            let workflow = #"[{"channel":"voice"},{"channel":"sms"}]"#
            let mine = try await VonageCallbackFixture.start(client, number: VonageCallbackFixture.sentNumber,
                                                             workflow: workflow)
            let theirs = try await VonageCallbackFixture.start(client, number: "+447911123457", workflow: workflow)
            let event = Self.event("unanswered").replacingOccurrences(of: "63f61863-4a51-4f6b-86e1-46edebcf9356",
                                                                     with: "call-" + mine)
            #expect(try await post(client, ref: "\(theirs):0", event, clock: app.clock) == 409)
            #expect(try await store.verification(id: theirs)?.workflow.map(\.status) == [.active, .unused])
            let labels = try await store.events(id: theirs, after: 0, limit: 100).map(\.label)
            #expect(!labels.contains("provider:failed"))
            #expect(try await post(client, ref: "\(mine):0", event, clock: app.clock) == 204)
            #expect(try await store.verification(id: mine)?.workflow.map(\.status) == [.failed, .active])
        }
    }

    @Test("an event signed with another secret is refused and changes nothing")
    func forged() async throws {
        try await withApplication { client, clock, store in
            let id = try await VonageCallbackFixture.start(client, number: VonageCallbackFixture.sentNumber,
                                                           workflow: #"[{"channel":"voice"},{"channel":"sms"}]"#)
            let before = try await store.events(id: id, after: 0, limit: 100)
            #expect(try await post(client, ref: "\(id):0", Self.event("failed"), clock: clock, secret: "not-the-secret") == 401)
            #expect(try await store.events(id: id, after: 0, limit: 100) == before)
            #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.active, .unused])
        }
    }
}
