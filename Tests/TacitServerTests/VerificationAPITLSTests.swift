import Foundation
import Testing
import TacitTesting

/// The API over HTTPS, through the test application's TLS mode: the same answers as over
/// plain HTTP, and the links the server hands out start with https.
@Suite("The verification API over TLS", .timeLimit(.minutes(1)))
struct VerificationAPITLSTests {
    @Test("a start, the inbox code and its check complete a verification over HTTPS, and check_url is an https link")
    func codeFlow() async throws {
        try await TestApplication.test(.liveTLS) { app, client in
            #expect(app.baseURL.hasPrefix("https://127.0.0.1:"))
            #expect(try await client.get("/healthz").status == 200)
            let (id, started) = try await client.start("+99012345674", channels: ["silent_auth", "sms"])
            #expect(started.status == 202)
            #expect(started.string("check_url")?.hasPrefix(app.baseURL + "/") == true)
            _ = try await client.post("/v1/verifications/\(id)/next", json: [:])
            let code = try #require(try await client.latestCode("+99012345674"))
            let checked = try await client.post("/v1/verifications/\(id)/check", json: ["code": code])
            #expect(checked.status == 200)
            #expect(checked.string("status") == "completed")
        }
    }

    @Test("an unknown route answers its problem over HTTPS as over HTTP")
    func problemOverTLS() async throws {
        try await TestApplication.test(.liveTLS) { _, client in
            let reply = try await client.get("/v1/verifications/vf_nope")
            #expect(reply.status == 404)
            #expect(reply.header("content-type")?.hasPrefix("application/problem+json") == true)
        }
    }
}
