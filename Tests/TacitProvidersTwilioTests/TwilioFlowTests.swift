import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitTesting
import TacitProvidersTwilio

/// Twilio behind the router inside a whole application, in process: what the timeline
/// shows of each hop, and a signed undelivered receipt failing the step over at once.
@Suite("Twilio in the application: provider hops on the timeline and receipts in the engine")
struct TwilioFlowTests {
    static let token = "flow-auth-token"
    static let publicURL = "https://tacit.example"
    static let number = "+447911123456"
    static let sid = "SM" + String(repeating: "5e", count: 4) + "20261201" + String(repeating: "ab", count: 8)

    /// An application whose only provider is Twilio over `http`, with callbacks verified by the same token.
    func withTwilio(_ http: RecordingHTTPClient, backup: (any MessageSender)? = nil,
                    _ body: (TestApplication, TestClient) async throws -> Void) async throws {
        let settings = TwilioSettings(accountSid: "AC" + String(repeating: "0a", count: 16), authToken: Self.token,
                                      from: "+15005550006", apiURL: "http://127.0.0.1:9", publicURL: Self.publicURL)
        var providers = [RoutedProvider(name: "twilio", channels: settings.channels, sender: TwilioSender(settings: settings, http: http))]
        if let backup { providers.append(RoutedProvider(name: "backup", channels: [.sms, .voice], sender: backup)) }
        let router = try ProviderRouter(providers: providers, routes: ProviderRoutes())
        try await TestApplication.test(.inProcess, configure: { configuration, dependencies in
            configuration.publicURL = Self.publicURL
            dependencies.callbacks = [TwilioCallbackRoute(authToken: Self.token)]
            dependencies.sender = router
        }, body)
    }

    func start(_ client: TestClient) async throws -> String {
        let reply = try await client.post("/v1/verifications", json: ["phone_number": Self.number, "workflow": [["channel": "sms"], ["channel": "voice"]]])
        return try #require(reply.string("request_id"))
    }

    func events(_ app: TestApplication, _ id: String) async throws -> [TimelineEvent] {
        try await app.store.events(id: id, after: 0, limit: 100)
    }

    @Test("an accepted SMS shows a provider event with Twilio's sid and no number, then the code sent")
    func acceptedHop() async throws {
        let http = RecordingHTTPClient { _ in OutboundResponse(status: 201, body: Array(#"{"sid":"\#(Self.sid)"}"#.utf8)) }
        try await withTwilio(http) { app, client in
            let id = try await start(client)
            let events = try await events(app, id)
            let hop = try #require(events.first { $0.label == "provider:accepted" })
            #expect(hop.source == .provider)
            #expect(hop.data["provider"] == .string("twilio"))
            #expect(hop.data["message_id"] == .string(Self.sid))
            #expect(events.map(\.label).firstIndex(of: "provider:accepted")! < events.map(\.label).firstIndex(of: "sms:code_sent")!)
            let body = String(decoding: try #require(http.requests.first).body, as: UTF8.self)
            #expect(body.contains("ref%3D\(id)%3A0"))
        }
    }

    @Test("a signed undelivered receipt fails the SMS step over to voice at once, with the sid and error code on the timeline")
    func undeliveredReceipt() async throws {
        let http = RecordingHTTPClient { _ in OutboundResponse(status: 201, body: Array(#"{"sid":"\#(Self.sid)"}"#.utf8)) }
        try await withTwilio(http) { app, client in
            let id = try await start(client)
            let path = "/v1/callbacks/twilio?ref=\(id):0"
            let parameters: [(name: String, value: String)] = [("MessageSid", Self.sid), ("MessageStatus", "undelivered"), ("ErrorCode", "30005")]
            let signature = TwilioSignature.compute(authToken: Self.token, url: Self.publicURL + path, parameters: parameters)
            let form = parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            let reply = try await client.send("POST", path, body: Data(form.utf8), headers: [
                "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature])
            #expect(reply.status == 204)
            let verification = try #require(try await app.store.verification(id: id))
            #expect(verification.workflow.map(\.status) == [.failed, .active])
            #expect(verification.workflow[0].reason == "provider_undelivered")
            let failed = try #require(try await events(app, id).first { $0.label == "provider:failed" })
            #expect(failed.data["message_id"] == .string(Self.sid))
            #expect(failed.data["error_code"] == .number(30005))
            #expect(http.requests.count == 2)
            #expect(try #require(http.requests.last).url.path.hasSuffix("/Calls.json"))
        }
    }

    @Test("a 500 from Twilio fails over to the next provider in the same step, and the timeline names both")
    func failover() async throws {
        let http = RecordingHTTPClient { _ in OutboundResponse(status: 500, body: Array(#"{"code":20500,"message":"Internal","status":500}"#.utf8)) }
        let backup = RecordingSender()
        try await withTwilio(http, backup: backup) { app, client in
            let id = try await start(client)
            #expect(backup.count == 1)
            let verification = try #require(try await app.store.verification(id: id))
            #expect(verification.workflow.map(\.status) == [.active, .unused])
            let over = try #require(try await events(app, id).first { $0.label == "provider:failed_over" })
            #expect(over.data["provider"] == .string("twilio"))
            #expect(over.data["next_provider"] == .string("backup"))
            #expect(over.data["error_code"] == .number(20500))
        }
    }

    @Test("a permanent number error fails the step with its reason, asks no other provider, and moves to the next step")
    func permanent() async throws {
        let http = RecordingHTTPClient { request in
            request.url.path.hasSuffix("Messages.json")
                ? OutboundResponse(status: 400, body: Array(#"{"code":21211,"message":"The 'To' number \#(Self.number) is not a valid phone number.","status":400}"#.utf8))
                : OutboundResponse(status: 201, body: Array(#"{"sid":"CA\#(String(repeating: "7", count: 32))"}"#.utf8))
        }
        let backup = RecordingSender()
        try await withTwilio(http, backup: backup) { app, client in
            let id = try await start(client)
            let verification = try #require(try await app.store.verification(id: id))
            #expect(verification.workflow.map(\.status) == [.failed, .active])
            #expect(verification.workflow[0].reason == "invalid_number")
            #expect(backup.count == 0)
            let events = try await events(app, id)
            let refused = try #require(events.first { $0.label == "provider:refused" })
            #expect(refused.data["error_code"] == .number(21211))
            for event in events {
                #expect(!event.note.contains("7911123456"))
                #expect(!"\(event.data)".contains("7911123456"))
            }
        }
    }

    @Test("in dev, a +990 number still goes to the handset inbox and Twilio is never called")
    func virtualRangeStaysInDev() async throws {
        let http = RecordingHTTPClient()
        try await withTwilio(http) { app, client in
            let reply = try await client.post("/v1/verifications", json: ["phone_number": "+99012345670", "workflow": [["channel": "sms"]]])
            #expect(reply.status == 202)
            let inbox = try await client.get("/v1/dev/handsets/%2B99012345670/inbox")
            #expect((inbox.json["messages"] as? [[String: Any]])?.count == 1)
            #expect(http.requests.isEmpty)
        }
    }
}
