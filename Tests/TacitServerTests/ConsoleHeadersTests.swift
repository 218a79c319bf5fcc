import Foundation
import TacitTesting
import Testing

/// docs/security.md#the-console: every answer of the console carries a policy that allows
/// no inline script and no framing, `nosniff`, and no referrer.
@Suite("The console's security headers", .timeLimit(.minutes(1)))
struct ConsoleHeadersTests {
    @Test("the page, its scripts and styles, the OpenAPI document and a missing file all carry the policy",
          arguments: ["/", "/app.js", "/app.css", "/v1/openapi.json", "/no-such-file.js"])
    func headers(path: String) async throws {
        try await TestApplication.test(.inProcess) { _, client in
            let reply = try await client.get(path)
            let policy = try #require(reply.header("content-security-policy"), "\(path) has no policy")
            #expect(policy.contains("frame-ancestors 'none'") && policy.contains("script-src 'self'"))
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
            #expect(reply.header("x-content-type-options") == "nosniff")
            #expect(reply.header("referrer-policy") == "no-referrer")
        }
    }
}
