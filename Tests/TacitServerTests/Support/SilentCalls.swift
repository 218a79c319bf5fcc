import Foundation
import TacitCore
import TacitKit
import TacitTesting
@testable import TacitServer

/// The silent-auth suites' vocabulary over a live test application: API calls through the
/// test client, and a device whose check_url fetches leave from a cellular (`127.0.0.2`)
/// or Wi-Fi (`127.0.0.1`) address, which only a real socket has.
struct SilentCalls: Sendable {
    let app: TestApplication
    let client: TestClient
    var clock: ManualClock { app.clock }
    var databasePath: String { app.databasePath }
    var base: URL { URL(string: app.baseURL)! }
    static let cellular = SocketCellularTransport(sourceAddress: "127.0.0.2")
    static let wifi = SocketCellularTransport(sourceAddress: "127.0.0.1")
    static let api = SocketCellularTransport()

    /// Runs `body` against a live dev-mode application.
    static func test(
        clock: ManualClock = ManualClock(),
        configure: (inout ServerConfiguration, inout TacitApplication.Dependencies) -> Void = { _, _ in },
        _ body: (SilentCalls) async throws -> Void
    ) async throws {
        try await TestApplication.test(.live, clock: clock, configure: configure) { app, client in
            try await body(SilentCalls(app: app, client: client))
        }
    }

    /// `POST /v1/verifications`; the JSON answer and its status.
    func start(_ number: String, extra: String = "") async throws -> (status: Int, body: [String: Any]) {
        try await call("POST", "v1/verifications", body: #"{"phone_number":"\#(number)"\#(extra)}"#)
    }

    func state(_ id: String) async throws -> [String: Any] {
        try await call("GET", "v1/verifications/\(id)").body
    }

    func check(_ id: String, code: String) async throws -> (status: Int, body: [String: Any]) {
        try await call("POST", "v1/verifications/\(id)/check", body: #"{"code":"\#(code)"}"#)
    }

    func call(_ method: String, _ path: String, body: String? = nil) async throws -> (status: Int, body: [String: Any]) {
        let reply = try await client.send(method, "/" + path, body: body.map { Data($0.utf8) })
        return (reply.status, reply.json)
    }

    /// One hop from `transport` without following redirects, with `cookie` when given.
    func fetch(_ url: String, over transport: SocketCellularTransport, cookie: String? = nil) async throws -> CellularResponse {
        try await transport.send(CellularRequest(url: URL(string: url)!, headers: cookie.map { ["Cookie": $0] } ?? [:]))
    }

    /// Follows redirects hop by hop (as a device does), carrying the cookie a hop sets
    /// (the check URL's, which the callback asks for), and returns the last answer.
    func follow(_ url: String, over transport: SocketCellularTransport, cookie: String? = nil) async throws -> CellularResponse {
        var next = URL(string: url)!
        var cookie = cookie
        for _ in 0..<10 {
            let response = try await transport.send(CellularRequest(url: next, headers: cookie.map { ["Cookie": $0] } ?? [:]))
            cookie = Self.cookie(response) ?? cookie
            guard (300..<400).contains(response.status), let location = response.header("location") else { return response }
            next = URL(string: location, relativeTo: next)!.absoluteURL
        }
        throw CellularTransportError(.invalidResponse, "too many redirects")
    }

    /// The `name=value` a response's `Set-Cookie` sets, as a device sends it back.
    static func cookie(_ response: CellularResponse) -> String? {
        response.header("set-cookie").flatMap { $0.split(separator: ";").first.map(String.init) }
    }

    /// The device flow of the SDK, from `transport`.
    func runDevice(_ started: [String: Any], over transport: SocketCellularTransport, requestId: String? = nil) async -> SilentAuthResult {
        await SilentAuth.run(checkURL: URL(string: started["check_url"] as! String)!,
                             requestId: requestId ?? started["request_id"] as! String,
                             clientToken: started["client_token"] as! String, baseURL: base,
                             transport: transport, apiTransport: Self.api)
    }

    /// Statuses of the workflow's steps, in order.
    func steps(_ id: String) async throws -> [String] {
        let workflow = try await state(id)["workflow"] as? [[String: Any]] ?? []
        return workflow.map { $0["status"] as? String ?? "" }
    }

    /// Advances the clock (past a step's deadline) and waits for the event `label` on the
    /// live event stream: the server's timer has acted, with no polling.
    func advance(_ id: String, by seconds: TimeInterval = 60, until label: String) async {
        guard let stream = app.application.eventHub?.subscribe(id) else { return }
        clock.advance(by: seconds)
        for await event in stream where event.label == label { break }
    }

    static func json(_ data: Data) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}
