import Foundation
import Synchronization
import TacitCore
import TacitHTTP
import TacitProvidersDev
import TacitServer
import TacitStore
import TacitTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A webhook receiver on loopback that answers with scripted statuses (the last one
/// repeats) and keeps every request it got.
final class WebhookSink: Sendable {
    private final class Script: Sendable {
        let statuses: Mutex<[Int]>
        let received = Mutex<[HTTPRequest]>([])
        init(_ statuses: [Int]) { self.statuses = Mutex(statuses) }
        func answer(_ request: HTTPRequest) -> Int {
            received.withLock { $0.append(request) }
            return statuses.withLock { list in list.count > 1 ? list.removeFirst() : list.first ?? 204 }
        }
    }
    private let script: Script
    private let server: HTTPServer

    init(statuses: [Int]) throws {
        let script = Script(statuses)
        self.script = script
        var configuration = HTTPServer.Configuration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        server = HTTPServer(configuration: configuration) { request in .empty(status: script.answer(request)) }
        try server.start()
    }

    var url: String { "http://127.0.0.1:\(server.port)/hooks" }
    var requests: [HTTPRequest] { script.received.withLock { $0 } }
    func answer(_ next: [Int]) { script.statuses.withLock { $0 = next } }
    func stop() async { await server.shutdown() }
}

/// Builds live applications on loopback for webhook and callback tests.
enum Live {
    static let secrets = ["whsec_" + Data(repeating: 7, count: 32).base64EncodedString(),
                          "whsec_" + Data(repeating: 9, count: 24).base64EncodedString()]

    static func configuration(endpoints: [WebhookEndpoint], allowPrivate: Bool = true) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.dev = true
        configuration.secret = "webhook-tests"
        configuration.webhooks.endpoints = endpoints
        configuration.webhooks.allowPrivateTargets = allowPrivate
        return configuration
    }

    static func application(_ configuration: ServerConfiguration, store: any VerificationStore, clock: ManualClock) async throws -> TacitApplication {
        var dependencies = TacitApplication.Dependencies()
        dependencies.clock = clock
        dependencies.random = { 0.5 }
        DevProviders.wire(into: &dependencies, configuration: configuration)
        let application = TacitApplication(configuration: configuration, store: store, dependencies: dependencies)
        try await application.start()
        return application
    }

    static func temporaryDatabase() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tacit-webhooks-\(UUID().uuidString).db").path
    }

    static func send(_ method: String, _ url: String, json: String? = nil, headers: [String: String] = [:]) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = json.map { Data($0.utf8) }
        if json != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, object)
    }

    /// Starts an SMS-then-voice verification for a virtual number and returns its id.
    static func start(_ application: TacitApplication, number: String = "+99012345670", workflow: String = #"[{"channel":"sms"},{"channel":"voice"}]"#) async throws -> String {
        let (status, body) = try await send("POST", application.baseURL + "/v1/verifications",
                                            json: #"{"phone_number":"\#(number)","workflow":\#(workflow)}"#)
        guard status == 202, let id = body["request_id"] as? String else { throw LiveError.unexpected(status) }
        return id
    }

    static func cancel(_ application: TacitApplication, _ id: String) async throws {
        let (status, _) = try await send("DELETE", application.baseURL + "/v1/verifications/\(id)")
        guard status == 204 else { throw LiveError.unexpected(status) }
    }

    static func labels(_ application: TacitApplication, _ id: String, store: any VerificationStore) async throws -> [String] {
        try await store.events(id: id, after: 0, limit: 1000).map(\.label)
    }

    enum LiveError: Error { case unexpected(Int) }
}
