import Foundation
import TacitServer
import TacitStore
import TacitTesting

/// What the webhook and callback suites share: endpoint secrets, a dev configuration
/// with endpoints, and the calls that make a verification send a webhook.
enum WebhookFixtures {
    static let secrets = ["whsec_" + Data(repeating: 7, count: 32).base64EncodedString(),
                          "whsec_" + Data(repeating: 9, count: 24).base64EncodedString()]

    /// Webhooks go out over real loopback HTTP to the suites' sink (the test application's
    /// default is the recording client): at-least-once delivery over the wire is their point.
    static func configure(_ configuration: inout ServerConfiguration, _ dependencies: inout TacitApplication.Dependencies,
                          endpoints: [WebhookEndpoint], allowPrivate: Bool = true) {
        dependencies.httpClient = URLSessionHTTPClient()
        configuration.secret = "webhook-tests"
        configuration.webhooks.endpoints = endpoints
        configuration.webhooks.allowPrivateTargets = allowPrivate
    }

    static func temporaryDatabase() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tacit-webhooks-\(UUID().uuidString).db").path
    }

    /// Starts an SMS-then-voice verification for a virtual number and returns its id.
    static func start(_ client: TestClient, number: String = "+99012345670", workflow: String = #"[{"channel":"sms"},{"channel":"voice"}]"#) async throws -> String {
        let reply = try await client.post("/v1/verifications", raw: #"{"phone_number":"\#(number)","workflow":\#(workflow)}"#)
        guard reply.status == 202, let id = reply.string("request_id") else { throw FixtureError.unexpected(reply.status) }
        return id
    }

    static func cancel(_ client: TestClient, _ id: String) async throws {
        let status = try await client.delete("/v1/verifications/\(id)").status
        guard status == 204 else { throw FixtureError.unexpected(status) }
    }

    static func labels(_ id: String, store: any VerificationStore) async throws -> [String] {
        try await store.events(id: id, after: 0, limit: 1000).map(\.label)
    }

    enum FixtureError: Error { case unexpected(Int) }
}
