import Foundation
@testable import TacitServer
import TacitTesting
import Testing

/// The Vonage face's workflow of email steps alone (docs/compatible-apis.md): a
/// verification of the address, as Vonage Verify v2 makes one, with the code in the dev
/// mailbox and the address masked wherever it shows.
@Suite("Vonage face: email-only workflows", .timeLimit(.minutes(1)))
struct VonageFaceEmailTests {
    static func code(_ keyless: TestClient, _ address: String) async throws -> String? {
        let reply = try await keyless.get("/v1/dev/mailboxes/\(address)/inbox")
        let bodies = (reply.json["messages"] as? [[String: Any]] ?? []).compactMap { $0["body"] as? String }
        return bodies.last?.split(whereSeparator: { !$0.isNumber }).last(where: { $0.count >= 4 }).map(String.init)
    }

    @Test("an email step alone starts a verification of the address: 202, the mailbox's code completes it, the timeline masks it")
    func emailOnly() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let vonage = try await VonageFaceFixtures.make(app).client(keyless, app: app)
            let workflow: [[String: Any]] = [["channel": "email", "to": "Person@Example.com"]]
            let started = try await vonage.send("POST", "/v2/verify", json: ["brand": "Acme", "workflow": workflow])
            #expect(started.status == 202, "\(started.text)")
            let id = try #require(started.string("request_id"))
            let stored = try #require(try await app.store.verification(id: id))
            #expect(stored.phoneNumber.isEmpty && stored.contact == "Person@example.com")
            let code = try #require(try await Self.code(keyless, "Person@example.com"))
            let checked = try await vonage.send("POST", "/v2/verify/\(id)", json: ["code": code])
            #expect(checked.status == 200 && checked.string("status") == "completed", "\(checked.text)")
            let events = try await app.store.events(id: id, after: 0, limit: 100)
            let text = events.map { String(decoding: $0.jsonBytes, as: UTF8.self) }.joined()
            #expect(!text.contains("Person@") && text.contains("P•••••@example.com"), "\(text)")
        }
    }

    @Test("a second email-only start to the same address while one is pending is 409, as for a number")
    func onePending() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let vonage = try await VonageFaceFixtures.make(app).client(keyless, app: app)
            let workflow: [[String: Any]] = [["channel": "email", "to": "person@example.com"]]
            let first = try await vonage.send("POST", "/v2/verify", json: ["brand": "Acme", "workflow": workflow])
            #expect(first.status == 202, "\(first.text)")
            let second = try await vonage.send("POST", "/v2/verify", json: ["brand": "Acme", "workflow": workflow])
            #expect(second.status == 409, "\(second.text)")
            #expect(second.string("request_id") == first.string("request_id"))
        }
    }
}
