import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitProviderKit
import TacitServer
import TacitTesting
@testable import TacitProvidersVonage

/// Verify v2's silent-auth events at `/v1/callbacks/vonage`: signed as every Vonage
/// callback, and applied only to the flow whose recorded Verify request they name.
@Suite("Vonage Verify silent-auth callbacks")
struct VonageSilentCallbackTests {
    static let secret = VonageCallbackFixture.secret
    static let number = "+447400123456"

    func withFlow(_ body: (TestClient, ManualClock, String) async throws -> Void) async throws {
        let router = try VonageCallbackFixture.silentRouter("vonage")
        try await TestApplication.test(.inProcess, configure: { _, dependencies in
            VonageCallbackFixture.configure(&dependencies)
            dependencies.silentAuth = router
        }) { app, client in
            let start = #"{"phone_number":"\#(Self.number)","workflow":[{"channel":"silent_auth"},{"channel":"sms"}]}"#
            let started = try await client.post("/v1/verifications", raw: start)
            try await body(client, app.clock, started.json["request_id"] as! String)
        }
    }

    static func event(_ id: String, requestId: String = "ref-vonage", status: String) -> String {
        let ref = VonageClientReference.text(verificationId: id, step: 0)!
        return #"{"request_id":"\#(requestId)","triggered_at":"2026-12-01T10:00:00.000Z","type":"event","channel":"silent_auth","status":"\#(status)","client_ref":"\#(ref)"}"#
    }

    func post(_ client: TestClient, _ body: String, clock: ManualClock, secret: String = secret,
              jti: String = UUID().uuidString) async throws -> TestResponse {
        let token = JWT.sign(claims: ["iat": .int(Int64(clock.now().timeIntervalSince1970)), "jti": .string(jti),
                                      "payload_hash": .string(Hex.encode(SHA256.hash(body)))], secret: Array(secret.utf8))
        return try await client.send("POST", "/v1/callbacks/vonage", body: Data(body.utf8), headers: ["Authorization": "Bearer \(token)"])
    }

    func steps(_ client: TestClient, _ id: String) async throws -> [String] {
        let state = try await client.get("/v1/verifications/\(id)")
        return (state.json["workflow"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? String }
    }

    @Test("a signed user_rejected for the flow's own Verify request ends the silent step at once, and its replay is refused")
    func rejected() async throws {
        try await withFlow { client, clock, id in
            let body = Self.event(id, status: "user_rejected")
            #expect(try await post(client, body, clock: clock, jti: "j1").status == 204)
            #expect(try await steps(client, id) == ["rejected", "active"])
            let replay = try await post(client, body, clock: clock, jti: "j1")
            #expect(replay.status == 409 && replay.json["type"] as? String == "replayed-callback")
        }
    }

    @Test("a forged event and one naming another Verify request are refused and change nothing; progress is only recorded")
    func refused() async throws {
        try await withFlow { client, clock, id in
            #expect(try await post(client, Self.event(id, status: "failed"), clock: clock, secret: "not-the-secret").status == 401)
            let crossed = try await post(client, Self.event(id, requestId: "ref-other", status: "failed"), clock: clock)
            #expect(crossed.status == 409 && crossed.json["type"] as? String == "callback-check-mismatch")
            #expect(try await post(client, Self.event(id, status: "action_pending"), clock: clock).status == 204)
            #expect(try await steps(client, id) == ["active", "unused"])
            let events = try await client.get("/v1/verifications/\(id)/events")
            let labels = (events.json["events"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
            #expect(labels.contains("provider:silent_status"))
        }
    }

    @Test("an expired event ends the silent step at once and the workflow moves on")
    func expired() async throws {
        try await withFlow { client, clock, id in
            let answer = try await post(client, Self.event(id, status: "expired"), clock: clock)
            #expect(answer.status == 204)
            #expect(try await steps(client, id) == ["failed", "active"])
        }
    }
}
