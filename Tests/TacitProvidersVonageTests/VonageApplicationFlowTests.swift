import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitTesting
import TacitProvidersVonage

/// Vonage's Messages and Voice APIs behind the router inside a whole application, in process:
/// the runner hands the issued code to the template, and a refusal shows on the timeline.
@Suite("Vonage WhatsApp and voice in the application")
struct VonageApplicationFlowTests {
    static let number = "+447911123456"
    static let uuid = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"

    func withVonage(_ http: RecordingHTTPClient, _ body: (TestApplication, TestClient) async throws -> Void) async throws {
        let credentials = VonageApplicationCredentials(
            applicationId: "0b3e6a4f-5c2d-4e1f-9a8b-7c6d5e4f3a2b", privateKey: try RSAPrivateKey(pem: try await OpenSSLKeys.shared().privatePEM),
            apiURL: "http://127.0.0.1:9", whatsappFrom: "447700900001", voiceFrom: "447700900002",
            whatsappTemplate: "acme:verify_code", publicURL: "https://tacit.example")
        let sender = VonageSender(settings: nil, application: credentials, http: http)
        let router = try ProviderRouter(providers: [RoutedProvider(name: "vonage", channels: credentials.channels, sender: sender)],
                                        routes: ProviderRoutes())
        try await TestApplication.test(.inProcess, configure: { configuration, dependencies in
            configuration.publicURL = "https://tacit.example"
            dependencies.sender = router
        }, body)
    }

    static func template(_ request: OutboundRequest) throws -> [String: JSONValue] {
        let body = try JSONDecoder().decode([String: JSONValue].self, from: Data(request.body))
        guard case .object(let template)? = body["template"] else { throw CocoaError(.coderValueNotFound) }
        return template
    }

    @Test("the WhatsApp template's one parameter is the issued code: checking it completes the verification")
    func templateCarriesTheCode() async throws {
        let http = RecordingHTTPClient { _ in OutboundResponse(status: 202, body: Array(#"{"message_uuid":"\#(Self.uuid)"}"#.utf8)) }
        try await withVonage(http) { app, client in
            let reply = try await client.post("/v1/verifications", json: ["phone_number": Self.number, "workflow": [["channel": "whatsapp"]]])
            let id = try #require(reply.string("request_id"))
            guard case .array(let parameters)? = try Self.template(try #require(http.requests.first))["parameters"],
                  case .string(let code)? = parameters.first else { Issue.record("no code parameter"); return }
            let checked = try await client.post("/v1/verifications/\(id)/check", json: ["code": code])
            #expect(checked.string("status") == "completed")
            let hop = try #require(try await app.store.events(id: id, after: 0, limit: 100).first { $0.label == "provider:accepted" })
            #expect(hop.data["message_id"] == .string(Self.uuid))
        }
    }

    @Test("a Messages API 422 for a barred number fails the WhatsApp step with number_blocked and the next step calls")
    func barred() async throws {
        let problem = #"{"type":"https://developer.nexmo.com/api-errors/messages-olympus#1050","title":"Number barred"}"#
        let call = #"{"uuid":"63f61863-4a51-4f6b-86e1-46edebcf9356","status":"started"}"#
        let http = RecordingHTTPClient { request in
            request.url.path.hasSuffix("/v1/messages") ? OutboundResponse(status: 422, body: Array(problem.utf8))
                : OutboundResponse(status: 201, body: Array(call.utf8))
        }
        try await withVonage(http) { app, client in
            let reply = try await client.post("/v1/verifications", json: ["phone_number": Self.number,
                                                                           "workflow": [["channel": "whatsapp"], ["channel": "voice"]]])
            let id = try #require(reply.string("request_id"))
            let verification = try #require(try await app.store.verification(id: id))
            #expect(verification.workflow.map(\.status) == [.failed, .active])
            #expect(verification.workflow[0].reason == "number_blocked")
            #expect(http.requests.map(\.url.path) == ["/v1/messages", "/v1/calls"])
        }
    }
}
