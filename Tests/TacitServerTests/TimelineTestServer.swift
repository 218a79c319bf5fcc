import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TacitCore
import TacitServer
import TacitStoreSQLite
import TacitTesting
import TacitProvidersDev

/// A dev-mode server on an ephemeral loopback port with a temporary SQLite file and a
/// manual clock. Every answer it gives is kept (unless asked not to), for the redaction scan.
final class TimelineTestServer: Sendable {
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let app: TacitApplication
    let clock = ManualClock()
    let directory: URL
    let dbPath: String
    private let kept = Mutex<[Data]>([])

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-timeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        dbPath = directory.appendingPathComponent("tacit.db").path
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dev = true
        configuration.databasePath = dbPath
        var dependencies = TacitApplication.Dependencies()
        dependencies.clock = clock
        DevProviders.wire(into: &dependencies, configuration: configuration)
        app = TacitApplication(configuration: configuration, store: try SQLiteVerificationStore(path: dbPath), dependencies: dependencies)
        try await app.start()
    }

    func stop() async {
        await app.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    var baseURL: URL { URL(string: app.baseURL)! }
    /// Every kept answer, for scanning.
    var replies: [Data] { kept.withLock { $0 } }

    func keep(_ data: Data) { kept.withLock { $0.append(data) } }

    @discardableResult
    func call(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:], keep: Bool = true) async throws -> Reply {
        var request = URLRequest(url: URL(string: app.baseURL + path)!)
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        if keep { self.keep(data) }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    /// Starts a verification; the create answer is the one place the client token appears, so it is not kept.
    func start(_ number: String, workflow: [String] = ["sms", "voice"], timeout: Int = 60) async throws -> (id: String, token: String) {
        let steps = workflow.map { "{\"channel\":\"\($0)\"}" }.joined(separator: ",")
        let reply = try await call("POST", "/v1/verifications",
                                   json: "{\"phone_number\":\"\(number)\",\"workflow\":[\(steps)],\"channel_timeout\":\(timeout)}", keep: false)
        guard reply.status == 202, let id = reply.json?["request_id"] as? String, let token = reply.json?["client_token"] as? String else {
            throw TimelineTestError("create answered \(reply.status)")
        }
        return (id, token)
    }

    /// Starts a silent-first verification and returns its check URL too.
    func startSilent(_ number: String) async throws -> (id: String, token: String, checkURL: String) {
        let reply = try await call("POST", "/v1/verifications",
                                   json: "{\"phone_number\":\"\(number)\",\"workflow\":[{\"channel\":\"silent_auth\"},{\"channel\":\"sms\"}]}", keep: false)
        guard reply.status == 202, let id = reply.json?["request_id"] as? String, let token = reply.json?["client_token"] as? String,
              let checkURL = reply.json?["check_url"] as? String else {
            throw TimelineTestError("silent create answered \(reply.status)")
        }
        return (id, token, checkURL)
    }

    /// The codes the virtual handset received, oldest first (the inbox is not kept: it is the phone's screen).
    func codes(_ number: String) async throws -> [String] {
        let reply = try await call("GET", "/v1/dev/handsets/\(number.replacingOccurrences(of: "+", with: "%2B"))/inbox", keep: false)
        let messages = reply.json?["messages"] as? [[String: Any]] ?? []
        return messages.compactMap { ($0["body"] as? String).flatMap(Self.code(in:)) }
    }

    /// The digits between "code is" and the next full stop: SMS writes them together, voice spaces them out.
    static func code(in body: String) -> String? {
        guard let start = body.range(of: "code is") else { return nil }
        let rest = body[start.upperBound...]
        let digits = rest.prefix { $0 != "." }.filter(\.isNumber)
        return digits.isEmpty ? nil : String(digits)
    }

    func events(_ id: String, after: Int = 0) async throws -> [[String: Any]] {
        try await call("GET", "/v1/verifications/\(id)/events?after=\(after)").json?["events"] as? [[String: Any]] ?? []
    }
}

struct TimelineTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
