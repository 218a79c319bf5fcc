import Foundation
import Synchronization
import TacitServer
import TacitTesting

/// The timeline suites' vocabulary over the test application: every answer is kept
/// (unless asked not to), for the redaction scan.
struct TimelineCalls: Sendable {
    let app: TestApplication
    let client: TestClient
    private let kept = KeptAnswers()

    /// Runs `body` against a dev-mode application in `mode`, its configuration changed by `configure`.
    static func test(_ mode: TestApplication.Mode, configure: @escaping (inout ServerConfiguration) -> Void = { _ in },
                     _ body: (TimelineCalls) async throws -> Void) async throws {
        try await TestApplication.test(mode, configure: { configuration, _ in configure(&configuration) }) { app, client in
            try await body(TimelineCalls(app: app, client: client))
        }
    }

    var clock: ManualClock { app.clock }
    var dbPath: String { app.databasePath }
    var baseURL: URL { URL(string: app.baseURL)! }
    /// Every kept answer, for scanning.
    var replies: [Data] { kept.all }

    func keep(_ data: Data) { kept.append(data) }

    @discardableResult
    func call(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:], keep: Bool = true) async throws -> TestResponse {
        let reply = try await client.send(method, path, body: json.map { Data($0.utf8) }, headers: headers)
        if keep { self.keep(reply.body) }
        return reply
    }

    /// Starts a verification; the create answer is the one place the client token appears, so it is not kept.
    func start(_ number: String, workflow: [String] = ["sms", "voice"], timeout: Int = 60) async throws -> (id: String, token: String) {
        let steps = workflow.map { "{\"channel\":\"\($0)\"}" }.joined(separator: ",")
        let reply = try await call("POST", "/v1/verifications",
                                   json: "{\"phone_number\":\"\(number)\",\"workflow\":[\(steps)],\"channel_timeout\":\(timeout)}", keep: false)
        guard reply.status == 202, let id = reply.string("request_id"), let token = reply.string("client_token") else {
            throw TimelineTestError("create answered \(reply.status)")
        }
        return (id, token)
    }

    /// Starts a silent-first verification and returns its check URL too.
    func startSilent(_ number: String) async throws -> (id: String, token: String, checkURL: String) {
        let reply = try await call("POST", "/v1/verifications",
                                   json: "{\"phone_number\":\"\(number)\",\"workflow\":[{\"channel\":\"silent_auth\"},{\"channel\":\"sms\"}]}", keep: false)
        guard reply.status == 202, let id = reply.string("request_id"), let token = reply.string("client_token"),
              let checkURL = reply.string("check_url") else {
            throw TimelineTestError("silent create answered \(reply.status)")
        }
        return (id, token, checkURL)
    }

    /// The codes the virtual handset received, oldest first (the inbox is not kept: it is the phone's screen).
    func codes(_ number: String) async throws -> [String] {
        let reply = try await call("GET", "/v1/dev/handsets/\(number.replacingOccurrences(of: "+", with: "%2B"))/inbox", keep: false)
        let messages = reply.json["messages"] as? [[String: Any]] ?? []
        return messages.compactMap { ($0["body"] as? String).flatMap(Self.code(in:)) }
    }

    /// The digits between "code is" and the next full stop: SMS writes them together, voice spaces them out.
    static func code(in body: String) -> String? {
        guard let start = body.range(of: "code is") else { return nil }
        let rest = body[start.upperBound...]
        let digits = rest.prefix { $0 != "." }.filter(\.isNumber)
        return digits.isEmpty ? nil : String(digits)
    }

    /// Posts one device event with the verification's client token.
    func postDeviceEvent(_ id: String, token: String, label: String = "device:tapped") async throws -> TestResponse {
        try await call("POST", "/v1/verifications/\(id)/events", json: "{\"label\":\"\(label)\"}",
                       headers: ["Authorization": "Bearer \(token)"])
    }

    /// Every event, read page by page (`limit` each) by following `next_after`; also the pages' sizes.
    func allEvents(_ id: String, limit: Int) async throws -> (events: [[String: Any]], pages: [Int]) {
        var events: [[String: Any]] = []
        var pages: [Int] = []
        var after = 0
        while pages.count <= 10_000 {
            let page = try await call("GET", "/v1/verifications/\(id)/events?after=\(after)&limit=\(limit)").json
            let batch = page["events"] as? [[String: Any]] ?? []
            events += batch
            pages.append(batch.count)
            guard let next = page["next_after"] as? Int else { break }
            after = next
        }
        return (events, pages)
    }

    func events(_ id: String, after: Int = 0) async throws -> [[String: Any]] {
        try await call("GET", "/v1/verifications/\(id)/events?after=\(after)").json["events"] as? [[String: Any]] ?? []
    }
}

/// Answers kept from any task, in order.
final class KeptAnswers: Sendable {
    private let state = Mutex<[Data]>([])
    func append(_ data: Data) { state.withLock { $0.append(data) } }
    var all: [Data] { state.withLock { $0 } }
}

struct TimelineTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
