import Foundation
import Testing
@testable import TacitKit

@Suite("TacitClient")
struct TacitClientTests {
    static let state = #"{"request_id":"req-1","status":"pending","channel":"silent_auth","check_url":"http://127.0.0.1:1/c","client_token":"ct","expires_at":"2026-11-30T04:06:06Z","workflow":[{"channel":"silent_auth","status":"active"},{"channel":"sms","status":"unused"}],"risk":{"sim_swapped":false}}"#

    @Test("start sends snake_case JSON with the API key and decodes the state")
    func start() async throws {
        let server = try TestHTTPServer { _ in .respond(202, body: Self.state) }
        defer { server.stop() }
        let client = TacitClient(baseURL: server.baseURL, apiKey: "key-1")
        let request = StartVerificationRequest(phoneNumber: "+99012345670", workflow: [.silentAuth, .sms], codeLength: 6,
                                               clientRef: "u", simSwap: .init(maxAgeHours: 240, action: "flag"))
        let verification = try await client.start(request, idempotencyKey: "idem-1")
        #expect(verification.requestId == "req-1")
        #expect(verification.activeChannel == .silentAuth)
        #expect(verification.workflow.map(\.status) == [.active, .unused])
        #expect(verification.clientToken == "ct")
        #expect(verification.expiresAt == TacitJSON.parseDate("2026-11-30T04:06:06Z"))
        let seen = try #require(server.requests.first)
        #expect(seen.method == "POST" && seen.path == "/v1/verifications")
        #expect(seen.headers["authorization"] == "Bearer key-1")
        #expect(seen.headers["idempotency-key"] == "idem-1")
        let body = try #require(try JSONSerialization.jsonObject(with: seen.body) as? [String: Any])
        #expect(body["phone_number"] as? String == "+99012345670")
        #expect(body["code_length"] as? Int == 6)
        #expect((body["sim_swap"] as? [String: Any])?["max_age_hours"] as? Int == 240)
        #expect(body["brand"] == nil)
    }

    @Test("a wrong code throws invalid-code with the attempts left")
    func invalidCode() async throws {
        let server = try TestHTTPServer { _ in
            .respond(400, headers: ["Content-Type": "application/problem+json"],
                     body: #"{"type":"invalid-code","title":"Wrong code","status":400,"detail":"d","attempts_remaining":3}"#)
        }
        defer { server.stop() }
        await #expect(throws: TacitError(type: "invalid-code", title: "Wrong code", status: 400, detail: "d", attemptsRemaining: 3)) {
            try await TacitClient(baseURL: server.baseURL).check("req-1", code: "000000")
        }
        #expect(server.requests.first?.bodyText == #"{"code":"000000"}"#)
        #expect(server.requests.first?.path == "/v1/verifications/req-1/check")
    }

    @Test("rate limiting carries Retry-After and invalid parameters come through")
    func problems() async throws {
        let replies = ScriptedReplies([
            .respond(429, headers: ["Retry-After": "17"], body: #"{"type":"rate-limited","title":"Slow down","status":429}"#),
            .respond(422, body: #"{"type":"invalid-parameters","title":"Bad","status":422,"invalid_parameters":[{"name":"code_length","reason":"4-10"}]}"#),
            .respond(502, body: "<html>"),
        ])
        let server = try TestHTTPServer { _ in replies.next() }
        defer { server.stop() }
        let client = TacitClient(baseURL: server.baseURL)
        let limited = await #expect(throws: TacitError.self) { try await client.next("req-1") }
        #expect(limited?.retryAfter == 17 && limited?.type == "rate-limited")
        let invalid = await #expect(throws: TacitError.self) { try await client.start(.init(phoneNumber: "+1")) }
        #expect(invalid?.invalidParameters == [.init(name: "code_length", reason: "4-10")])
        let gateway = await #expect(throws: TacitError.self) { try await client.state("req-1") }
        #expect(gateway?.type == "http-502" && gateway?.isTransient == true)
    }

    @Test("cancel, events, timeline and the handset inbox hit their routes")
    func routes() async throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/v1/verifications/req-1/events": .respond(200, body: #"{"events":[\#(EventJSON.event(4, "sms:code_sent"))]}"#)
            case "/v1/verifications/req-1/timeline":
                .respond(200, body: #"{"request_id":"req-1","summary":{"status":"completed","workflow":[{"channel":"sms","status":"completed"}],"started_at":"2026-11-30T04:05:06Z","ended_at":"2026-11-30T04:05:09.5Z","duration_ms":3500},"stages":[{"channel":"sms","status":"completed","started_at":"2026-11-30T04:05:06Z","ended_at":null,"duration_ms":3500}],"events":[]}"#)
            case "/v1/dev/handsets/%2B99012345670/inbox":
                .respond(200, body: #"{"messages":[{"channel":"sms","body":"Your Acme code is 123456","at":"2026-11-30T04:05:06Z"}]}"#)
            default: .respond(204)
            }
        }
        defer { server.stop() }
        let client = TacitClient(baseURL: server.baseURL)
        try await client.cancel("req-1")
        #expect(server.requests.first?.method == "DELETE")
        let events = try await client.events("req-1", after: 3)
        #expect(events.map(\.label) == ["sms:code_sent"] && events.first?.data?["k"] == .string("v"))
        #expect(server.requests(to: "/v1/verifications/req-1/events").first?.target.hasSuffix("?after=3") == true)
        let timeline = try await client.timeline("req-1")
        #expect(timeline.summary.durationMs == 3500 && timeline.stages.first?.endedAt == nil)
        let inbox = try await client.handsetInbox("+99012345670")
        #expect(inbox.first?.code == "123456")
    }

    @Test("an unreachable server is a network-error")
    func unreachable() async throws {
        let server = try TestHTTPServer { _ in .drop }
        server.stop()
        let error = await #expect(throws: TacitError.self) { try await TacitClient(baseURL: server.baseURL).state("x") }
        #expect(error?.type == "network-error" && error?.status == 0)
    }
}

@Suite("Redaction")
struct RedactionTests {
    @Test("printing a start request or a verification shows no number, token or check URL")
    func descriptions() {
        let request = StartVerificationRequest(phoneNumber: "+99012345670")
        #expect(String(describing: request).contains("+99•••••5670"))
        #expect(!String(describing: request).contains("12345670"))
        let text = String(describing: Fixtures.verification(active: 0))
        #expect(!text.contains("ct") && !text.contains("http"))
    }
}
