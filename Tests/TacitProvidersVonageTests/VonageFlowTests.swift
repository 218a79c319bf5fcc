import Foundation
import Testing
import TacitCore
import TacitServer
import TacitStore
import TacitTesting
import TacitProvidersVonage

/// Vonage behind the router inside a whole application, in process: what the timeline
/// shows of an accepted SMS and of a permanent refusal.
@Suite("Vonage in the application: provider hops on the timeline")
struct VonageFlowTests {
    static let number = "+447911123456"
    static let messageId = "C0A0000000123ABCD"

    func withVonage(_ http: RecordingHTTPClient, _ body: (TestApplication, TestClient) async throws -> Void) async throws {
        let settings = VonageSettings(apiKey: "abcd1234", apiSecret: "flow-secret", from: "Acme", restURL: "http://127.0.0.1:9",
                                      publicURL: "https://tacit.example")
        let provider = RoutedProvider(name: "vonage", channels: settings.channels, sender: VonageSender(settings: settings, http: http))
        let router = try ProviderRouter(providers: [provider], routes: ProviderRoutes())
        try await TestApplication.test(.inProcess, configure: { configuration, dependencies in
            configuration.publicURL = "https://tacit.example"
            dependencies.sender = router
        }, body)
    }

    func start(_ client: TestClient) async throws -> String {
        let reply = try await client.post("/v1/verifications", json: ["phone_number": Self.number, "workflow": [["channel": "sms"], ["channel": "voice"]]])
        return try #require(reply.string("request_id"))
    }

    @Test("an accepted SMS shows a vonage provider event with its message id, and the request names the step by client-ref")
    func accepted() async throws {
        let answer = #"{"message-count":"1","messages":[{"message-id":"\#(Self.messageId)","status":"0"}]}"#
        let http = RecordingHTTPClient { _ in OutboundResponse(status: 200, body: Array(answer.utf8)) }
        try await withVonage(http) { app, client in
            let id = try await start(client)
            let events = try await app.store.events(id: id, after: 0, limit: 100)
            let hop = try #require(events.first { $0.label == "provider:accepted" })
            #expect(hop.source == .provider)
            #expect(hop.data["provider"] == .string("vonage"))
            #expect(hop.data["message_id"] == .string(Self.messageId))
            let body = String(decoding: try #require(http.requests.first).body, as: UTF8.self)
            #expect(body.contains("client-ref=\(id)%3A0"))
        }
    }

    @Test("a barred number fails the SMS step with number_blocked and Vonage's status code on the timeline")
    func barred() async throws {
        let answer = #"{"message-count":"1","messages":[{"status":"7","error-text":"Number barred"}]}"#
        let http = RecordingHTTPClient { _ in OutboundResponse(status: 200, body: Array(answer.utf8)) }
        try await withVonage(http) { app, client in
            let id = try await start(client)
            let verification = try #require(try await app.store.verification(id: id))
            #expect(verification.workflow[0].status == .failed)
            #expect(verification.workflow[0].reason == "number_blocked")
            let refused = try #require(try await app.store.events(id: id, after: 0, limit: 100).first { $0.label == "provider:refused" })
            #expect(refused.data["error_code"] == .number(7))
            #expect(refused.data["reason"] == .string("number_blocked"))
        }
    }
}
