import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TacitCore
import TacitCrypto
import TacitServer
import TacitStoreSQLite
import TacitTesting
import TacitProvidersDev

/// A real Tacit server on an ephemeral loopback port, with a temp SQLite file and a
/// ManualClock, for tests that go over HTTP.
final class LiveServer: Sendable {
    let app: TacitApplication
    let clock: ManualClock
    let databasePath: String
    let directory: URL

    static func start(dev: Bool = true, codes: CodeGenerator = .secure, directory: URL? = nil,
                      clock: ManualClock = ManualClock()) async throws -> LiveServer {
        let directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("tacit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dev = dev
        configuration.databasePath = directory.appendingPathComponent("tacit.db").path
        var dependencies = TacitApplication.Dependencies()
        dependencies.clock = clock
        dependencies.codes = codes
        let store = try SQLiteVerificationStore(path: configuration.databasePath)
        DevProviders.wire(into: &dependencies, configuration: configuration)
        let app = TacitApplication(configuration: configuration, store: store, dependencies: dependencies)
        try await app.start()
        return LiveServer(app: app, clock: clock, databasePath: configuration.databasePath, directory: directory)
    }

    private init(app: TacitApplication, clock: ManualClock, databasePath: String, directory: URL) {
        self.app = app
        self.clock = clock
        self.databasePath = databasePath
        self.directory = directory
    }

    var baseURL: String { app.baseURL }

    /// Moves the clock and fires whatever became due.
    func advance(by seconds: TimeInterval) async {
        clock.advance(by: seconds)
        await app.fireDueTimers()
    }

    func stop() async {
        await app.shutdown()
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A response as the tests see it.
struct Reply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    var text: String { String(decoding: body, as: UTF8.self) }
    subscript(key: String) -> Any? { json[key] }
    var string: (String) -> String? { { self.json[$0] as? String } }
}

/// Plain HTTP calls over URLSession.
struct Client: Sendable {
    let base: String

    func send(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields[String(describing: key).lowercased()] = String(describing: value) }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    func get(_ path: String, headers: [String: String] = [:]) async throws -> Reply { try await send("GET", path, headers: headers) }

    func post(_ path: String, json: Any, headers: [String: String] = [:]) async throws -> Reply {
        try await send("POST", path, body: try JSONSerialization.data(withJSONObject: json), headers: headers)
    }

    func post(_ path: String, raw: String, headers: [String: String] = [:]) async throws -> Reply {
        try await send("POST", path, body: Data(raw.utf8), headers: headers)
    }

    /// Starts a verification and returns its id (fails the test's expectation if not 202).
    func start(_ number: String, channels: [String] = ["sms", "voice"], extra: [String: Any] = [:]) async throws -> (id: String, reply: Reply) {
        var body: [String: Any] = ["phone_number": number, "workflow": channels.map { ["channel": $0] }]
        body.merge(extra) { $1 }
        let reply = try await post("/v1/verifications", json: body)
        return (reply.string("request_id") ?? "", reply)
    }

    /// The newest code in a virtual handset's inbox.
    func latestCode(_ number: String) async throws -> String? {
        let reply = try await get("/v1/dev/handsets/\(number.replacingOccurrences(of: "+", with: "%2B"))/inbox")
        let messages = reply.json["messages"] as? [[String: Any]] ?? []
        guard let body = messages.last?["body"] as? String else { return nil }
        return body.split(whereSeparator: { !$0.isNumber }).first(where: { $0.count >= 4 }).map(String.init)
    }
}
