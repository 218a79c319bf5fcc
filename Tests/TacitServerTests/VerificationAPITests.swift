import Foundation
import Testing
import TacitTesting
import TacitCrypto

@Suite("Verification API over loopback")
struct VerificationAPITests {
    @Test("an SMS verification completes with the code from the handset inbox")
    func smsFlowCompletes() async throws {
        try await TestApplication.test(.inProcess) { server, client in
            let (id, started) = try await client.start("+99012345671", channels: ["sms"])
            #expect(started.status == 202)
            #expect(started.string("status") == "pending")
            #expect(started.string("channel") == "sms")
            #expect(started.string("client_token")?.hasPrefix("ct_") == true)
            #expect(started.headers["location"] == "/v1/verifications/\(id)")
            let code = try #require(try await client.latestCode("+99012345671"))
            #expect(code.count == 6)
            let checked = try await client.post("/v1/verifications/\(id)/check", json: ["code": code])
            #expect(checked.status == 200)
            #expect(checked.string("status") == "completed")
            let state = try await client.get("/v1/verifications/\(id)")
            #expect(state.string("status") == "completed")
            #expect((state["workflow"] as? [[String: String]])?.first?["status"] == "completed")
            #expect(state["client_token"] == nil, "secrets are handed out once")
        }
    }

    @Test("the default workflow starts on SMS when the operator has no silent-auth coverage")
    func defaultWorkflowFallsBack() async throws {
        try await TestApplication.test(.inProcess) { server, client in
            let reply = try await client.post("/v1/verifications", json: ["phone_number": "+99012345698"])
            #expect(reply.status == 202)
            let workflow = try #require(reply["workflow"] as? [[String: String]])
            #expect(workflow.map { $0["channel"] } == ["silent_auth", "sms", "voice"])
            #expect(workflow.map { $0["status"] } == ["failed", "active", "unused"])
            #expect(reply["check_url"] == nil)
        }
    }

    @Test("a wrong code reports attempts left, then the right one still works, once")
    func wrongThenRight() async throws {
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.codes = .fixed("424242") }) { server, client in
            let (id, _) = try await client.start("+99012345673", channels: ["sms"])
            let wrong = try await client.post("/v1/verifications/\(id)/check", json: ["code": "000000"])
            #expect(wrong.status == 400)
            #expect(wrong.string("type") == "invalid-code")
            #expect(wrong["attempts_remaining"] as? Int == 4)
            #expect(wrong.headers["content-type"] == "application/problem+json")
            #expect(try await client.post("/v1/verifications/\(id)/check", json: ["code": "424242"]).status == 200)
            let again = try await client.post("/v1/verifications/\(id)/check", json: ["code": "424242"])
            #expect(again.status == 409)
            #expect(again.string("type") == "not-pending")
        }
    }

    @Test("five wrong codes fail the verification with 410, and voice's new code does not reset the count")
    func bruteForceFails() async throws {
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.codes = .fixed("424242") }) { server, client in
            let (id, _) = try await client.start("+99012345674", channels: ["sms", "voice"])
            for remaining in [4, 3] {
                #expect(try await client.post("/v1/verifications/\(id)/check", json: ["code": "111111"])["attempts_remaining"] as? Int == remaining)
            }
            #expect(try await client.post("/v1/verifications/\(id)/next", json: [:]).status == 200)
            for remaining in [2, 1] {
                #expect(try await client.post("/v1/verifications/\(id)/check", json: ["code": "111111"])["attempts_remaining"] as? Int == remaining)
            }
            let last = try await client.post("/v1/verifications/\(id)/check", json: ["code": "111111"])
            #expect(last.status == 410)
            #expect(last.string("type") == "too-many-attempts")
            #expect(try await client.post("/v1/verifications/\(id)/check", json: ["code": "424242"]).status == 410)
            #expect(try await client.get("/v1/verifications/\(id)").string("status") == "failed")
        }
    }

    @Test("next moves to voice and sends a spoken code; next on the last step is 409")
    func nextAndVoice() async throws {
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.codes = .fixed("135790") }) { server, client in
            let (id, _) = try await client.start("+99012345675", channels: ["sms", "voice"])
            let moved = try await client.post("/v1/verifications/\(id)/next", json: [:])
            #expect(moved.string("channel") == "voice")
            let inbox = try await client.get("/v1/dev/handsets/%2B99012345675/inbox")
            let last = (inbox["messages"] as? [[String: String]])?.last
            #expect(last?["channel"] == "voice")
            #expect(last?["body"]?.contains("1, 3, 5, 7, 9, 0") == true)
            let none = try await client.post("/v1/verifications/\(id)/next", json: [:])
            #expect(none.status == 409)
            #expect(none.string("type") == "no-next-channel")
        }
    }

    @Test("a second pending verification for the same number is 409 until the first ends")
    func concurrentVerification() async throws {
        try await TestApplication.test(.inProcess) { server, client in
            let (id, _) = try await client.start("+99012345676", channels: ["sms"])
            let second = try await client.start("+99012345676", channels: ["sms"]).reply
            #expect(second.status == 409)
            #expect(second.string("type") == "concurrent-verification")
            #expect(try await client.send("DELETE", "/v1/verifications/\(id)").status == 204)
            #expect(try await client.send("DELETE", "/v1/verifications/\(id)").status == 204, "cancelling twice is harmless")
            #expect(try await client.start("+99012345676", channels: ["sms"]).reply.status == 202)
        }
    }

    @Test("an Idempotency-Key repeat returns the first response; another body with it is refused")
    func idempotency() async throws {
        try await TestApplication.test(.inProcess) { server, client in
            let body = ["phone_number": "+99012345677", "workflow": [["channel": "sms"]]] as [String: Any]
            let first = try await client.post("/v1/verifications", json: body, headers: ["Idempotency-Key": "k-1"])
            let repeated = try await client.post("/v1/verifications", json: body, headers: ["Idempotency-Key": "k-1"])
            #expect(first.status == 202)
            #expect(repeated.status == 202)
            #expect(repeated.body == first.body)
            let other = try await client.post("/v1/verifications", json: ["phone_number": "+99012345678"], headers: ["Idempotency-Key": "k-1"])
            #expect(other.status == 422)
            #expect(other.string("type") == "idempotency-key-reused")
            let messages = try await client.get("/v1/dev/handsets/%2B99012345677/inbox")["messages"] as? [Any]
            #expect(messages?.count == 1, "the repeat sent nothing")
        }
    }

    @Test("health, readiness, metrics and the OpenAPI document answer")
    func serviceRoutes() async throws {
        try await TestApplication.test(.inProcess) { server, client in
            #expect(try await client.get("/healthz").status == 200)
            #expect(try await client.get("/readyz").status == 200)
            _ = try await client.start("+99012345679", channels: ["sms"])
            let metrics = try await client.get("/metrics")
            #expect(metrics.text.contains("tacit_http_requests_total{method=\"POST\",route=\"/v1/verifications\",status=\"202\"} 1"))
            #expect(metrics.text.contains("tacit_verifications_pending 1"))
            #expect(metrics.text.contains("tacit_timers_pending 1"))
            let openapi = try await client.get("/v1/openapi.json")
            #expect(openapi.status == 200)
            #expect(openapi.json["openapi"] != nil)
        }
    }
}
