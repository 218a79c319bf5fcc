import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitTesting
import TacitProvidersDev

/// A live `TacitApplication` on an ephemeral loopback port with an in-memory store,
/// a manual clock, fixed codes and a recording sender, plus a small HTTP client.
final class SecurityTestServer: Sendable {
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        func header(_ name: String) -> String? { headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value }
        var json: [String: any Sendable] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: any Sendable]) ?? [:] }
        var type: String? { json["type"] as? String }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let application: TacitApplication
    let store: InMemoryStore
    let clock = ManualClock()
    let sender: RecordingSender
    let logLines = LogLines()
    private let session: URLSession

    init(dev: Bool = true, code: String = "123456", sender: RecordingSender = RecordingSender(),
         silent: (any SilentAuthProvider)? = nil, configure: (inout ServerConfiguration) -> Void = { _ in }) async throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dev = dev
        configure(&configuration)
        var dependencies = TacitApplication.Dependencies()
        dependencies.clock = clock
        dependencies.codes = .fixed(code)
        dependencies.sender = sender
        dependencies.silentAuth = silent
        let lines = logLines
        dependencies.securityLog = SecurityLog { line in lines.append(line) }
        store = InMemoryStore()
        self.sender = sender
        DevProviders.wire(into: &dependencies, configuration: configuration)
        application = TacitApplication(configuration: configuration, store: store, dependencies: dependencies)
        let session = URLSessionConfiguration.ephemeral
        session.httpMaximumConnectionsPerHost = 128
        session.timeoutIntervalForRequest = 20
        self.session = URLSession(configuration: session)
        try await application.start()
    }

    /// Makes a key in the running server's store (as `tacit keys create` does).
    func makeKey(scopes: [String] = []) async throws -> String {
        let manager = try await KeyManager.open(store: store, secret: nil)
        return try await manager.create(name: "test", scopes: scopes).secret
    }

    func request(_ method: String, _ path: String, json: [String: any Sendable]? = nil, token: String? = nil,
                 headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: application.baseURL + path)!)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields["\(key)"] = "\(value)" }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    /// Starts an SMS-first verification; the reply's JSON has `request_id` and `client_token`.
    func start(_ number: String, workflow: [String] = ["sms", "voice"], token: String? = nil) async throws -> Reply {
        try await request("POST", "/v1/verifications", json: ["phone_number": number, "workflow": workflow.map { ["channel": $0] }], token: token)
    }

    func check(_ id: String, _ code: String, token: String? = nil) async throws -> Reply {
        try await request("POST", "/v1/verifications/\(id)/check", json: ["code": code], token: token)
    }

    var logs: [String] { logLines.lines }

    func stop() async { await application.shutdown() }
}

/// A silent-auth provider that always issues a check URL and never completes.
struct IssuingSilentAuth: SilentAuthProvider {
    func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
        .issued(checkURL: "http://127.0.0.1:9/check/\(request.verificationId)", events: [])
    }
}

/// Log lines collected from the server.
final class LogLines: Sendable {
    private let state = Mutex<[String]>([])
    func append(_ line: String) { state.withLock { $0.append(line) } }
    var lines: [String] { state.withLock { $0 } }
}
