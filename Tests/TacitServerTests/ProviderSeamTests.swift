import Foundation
import Synchronization
import Testing
import TacitCore
import TacitCrypto
import TacitKit
import TacitServer
import TacitTesting

/// The server through its provider ports only: webhooks leave through the outbound
/// HTTP port, a non-dev server carries no dev provider, and a silent callback is
/// judged by whatever verdict reader the composition root wired.
@Suite("Provider seams: the HTTP client, the verdict reader, and no dev provider outside dev", .timeLimit(.minutes(1)))
struct ProviderSeamTests {
    /// A provider whose check leads to an authorization URL, as a CAMARA operator's does.
    struct AuthorizingProvider: SilentAuthProvider {
        func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
            .issued(checkURL: "http://127.0.0.1:9/authorize", events: [])
        }
    }

    /// A verdict reader shaped like a CAMARA authorization-code exchange: it redeems
    /// its own code once, then asks about the number the check was issued for.
    final class CodeRedeemingReader: SilentVerdictReader {
        let unspent = Mutex<Set<String>>(["auth_code_1"])
        let expectedNumber: String
        init(expectedNumber: String) { self.expectedNumber = expectedNumber }

        func verdict(for callback: SilentCallback) async -> SilentVerdict? {
            guard let code = callback.query["code"], let state = callback.query["state"],
                  unspent.withLock({ $0.remove(code) }) != nil else { return nil }
            let number = await callback.phoneNumber(state)
            return SilentVerdict(result: number == expectedNumber ? .match : .noMatch, state: state, session: nil, expires: nil)
        }
    }

    /// Opens the check URL and returns the callback URL carrying the check's `state` and
    /// `code`, with the cookie the opening set on the device.
    static func callbackURL(_ harness: SilentCalls, started: [String: Any], code: String) async throws -> (url: String, cookie: String?) {
        let hop = try await harness.fetch(started["check_url"] as! String, over: SilentCalls.cellular)
        let location = try #require(hop.header("location"))
        let gateway = try #require(URLComponents(string: location))
        let state = try #require(gateway.queryItems?.first { $0.name == "state" }?.value)
        var callback = URLComponents(string: harness.base.absoluteString + "/v1/silent/callback")!
        callback.queryItems = [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: state)]
        return (callback.string!, SilentCalls.cookie(hop))
    }

    /// Starts a verification on a server whose callbacks the code-redeeming reader judges,
    /// opens its check URL from the cellular path and sends the callback with `callbackCode`.
    static func withReader(callbackCode: String,
                           _ body: (SilentCalls, [String: Any], CellularResponse) async throws -> Void) async throws {
        try await SilentCalls.test(configure: { _, dependencies in
            dependencies.silentAuth = AuthorizingProvider()
            dependencies.silentVerdicts = CodeRedeemingReader(expectedNumber: "+99012345670")
        }) { harness in
            let started = try await harness.start("+99012345670").body
            let callback = try await callbackURL(harness, started: started, code: callbackCode)
            let answer = try await harness.fetch(callback.url, over: SilentCalls.cellular, cookie: callback.cookie)
            try await body(harness, started, answer)
        }
    }

    @Test("a webhook delivery goes through the HTTP client port, signed under every endpoint secret")
    func webhookThroughTheClient() async throws {
        let endpoint = WebhookEndpoint(url: "http://127.0.0.1:9/hooks", secrets: WebhookFixtures.secrets, events: [.cancelled])
        try await TestApplication.test(.inProcess, configure: { configuration, _ in
            configuration.webhooks.endpoints = [endpoint]
            configuration.webhooks.allowPrivateTargets = true
        }) { app, client in
            let id = try await WebhookFixtures.start(client, workflow: #"[{"channel":"sms"}]"#)
            try await WebhookFixtures.cancel(client, id)
            let recorder = app.httpClient
            await recorder.waitFor(1)
            let request = try #require(recorder.requests.first)
            #expect(request.method == "POST")
            #expect(request.url.absoluteString == endpoint.url)
            let headers = Dictionary(request.headers, uniquingKeysWith: { $1 })
            #expect(headers["Content-Type"] == "application/json")
            let webhookId = try #require(headers["webhook-id"])
            let timestamp = try #require(headers["webhook-timestamp"])
            let signatures = try #require(headers["webhook-signature"])
            #expect(signatures.split(separator: " ").count == WebhookFixtures.secrets.count)
            for secret in WebhookFixtures.secrets {
                try StandardWebhooks.verify(secret: secret, id: webhookId, timestamp: timestamp, signatures: signatures,
                                            body: request.body, now: app.clock.now())
            }
            let payload = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            #expect(payload?["type"] as? String == "verification.cancelled")
        }
    }

    @Test("a non-dev server answers 404 on the operator's and the handsets' routes: no dev provider is mounted")
    func nonDevMountsNothing() async throws {
        try await TestApplication.test(.inProcess, configure: { configuration, _ in configuration.dev = false }) { (_, client: TestClient) async throws in
            #expect(try await client.get("/operator/gateway/sess_1?redirect_uri=http://127.0.0.1/cb&state=x").status == 404)
            #expect(try await client.get("/operator/authorize?login_hint=%2B99012345670").status == 404)
            #expect(try await client.post("/camara/sim-swap/v0/check", json: ["phoneNumber": "+99012345670"]).status == 404)
            #expect(try await client.get("/v1/dev/handsets/%2B99012345670/inbox").status == 404)
        }
    }

    @Test("a callback judged by the wired reader, which redeems its own code and looks up the check's number, completes the step")
    func readerCompletesTheStep() async throws {
        try await Self.withReader(callbackCode: "auth_code_1") { (harness, started, answer) async throws in
            let id = try #require(started["request_id"] as? String)
            #expect(answer.status == 200)
            let body = SilentCalls.json(answer.body)
            #expect(body["request_id"] as? String == id)
            let code = try #require(body["code"] as? String)
            #expect(try await harness.check(id, code: code).status == 200)
            #expect(try await harness.steps(id) == ["completed", "unused", "unused"])
        }
    }

    @Test("a callback the wired reader refuses answers operator-answer-invalid and leaves the silent step active")
    func readerRefuses() async throws {
        try await Self.withReader(callbackCode: "auth_code_forged") { (harness, started, answer) async throws in
            #expect(answer.status == 403)
            #expect(SilentCalls.json(answer.body)["type"] as? String == "operator-answer-invalid")
            #expect(try await harness.steps(started["request_id"] as! String) == ["active", "unused", "unused"])
        }
    }
}
