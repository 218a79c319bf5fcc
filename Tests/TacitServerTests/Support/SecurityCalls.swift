import Foundation
import Synchronization
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitTesting

/// The security suites' vocabulary over the test application: an in-memory store, fixed
/// codes, and calls that carry an API key or client token.
struct SecurityCalls: Sendable {
    let app: TestApplication
    let client: TestClient
    let store: InMemoryStore

    /// Runs `body` against an application with an in-memory store and codes fixed to `code`.
    static func test(_ mode: TestApplication.Mode = .inProcess, dev: Bool = true, code: String = "123456",
                     sender: RecordingSender = RecordingSender(), silent: (any SilentAuthProvider)? = nil,
                     configure: (inout ServerConfiguration) -> Void = { _ in },
                     _ body: (SecurityCalls) async throws -> Void) async throws {
        let store = InMemoryStore()
        try await TestApplication.test(mode, store: store, sender: sender, configure: { configuration, dependencies in
            configuration.dev = dev
            configure(&configuration)
            dependencies.codes = .fixed(code)
            dependencies.silentAuth = silent
        }) { app, client in
            try await body(SecurityCalls(app: app, client: client, store: store))
        }
    }

    var sender: RecordingSender { app.sender }
    var clock: ManualClock { app.clock }
    var logs: [String] { app.securityLogLines }

    /// Makes a key in the running server's store (as `tacit keys create` does).
    func makeKey(scopes: [String] = []) async throws -> String {
        let manager = try await KeyManager.open(store: store)
        return try await manager.create(name: "test", scopes: scopes).secret
    }

    func request(_ method: String, _ path: String, json: [String: any Sendable]? = nil, token: String? = nil,
                 headers: [String: String] = [:]) async throws -> TestResponse {
        var fields = headers
        if let token { fields["Authorization"] = "Bearer \(token)" }
        return try await client.send(method, path, body: try json.map { try JSONSerialization.data(withJSONObject: $0) }, headers: fields)
    }

    /// Starts an SMS-first verification; the reply's JSON has `request_id` and `client_token`.
    func start(_ number: String, workflow: [String] = ["sms", "voice"], token: String? = nil) async throws -> TestResponse {
        try await request("POST", "/v1/verifications", json: ["phone_number": number, "workflow": workflow.map { ["channel": $0] }], token: token)
    }

    func check(_ id: String, _ code: String, token: String? = nil) async throws -> TestResponse {
        try await request("POST", "/v1/verifications/\(id)/check", json: ["code": code], token: token)
    }
}

/// A silent-auth provider that always issues a check URL and never completes.
struct IssuingSilentAuth: SilentAuthProvider {
    func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
        .issued(checkURL: "http://127.0.0.1:9/check/\(request.verificationId)", events: [])
    }
}
