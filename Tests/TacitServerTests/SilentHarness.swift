import Foundation
import TacitCore
import TacitKit
import TacitOperator
import TacitStoreSQLite
import TacitTesting
@testable import TacitServer
import TacitProvidersDev

/// A dev Tacit server on an ephemeral loopback port with a temp SQLite file and a
/// ManualClock, plus the clients a test needs: plain API calls, and a device whose
/// check_url fetches leave from a cellular (`127.0.0.2`) or Wi-Fi (`127.0.0.1`) address.
struct SilentHarness: Sendable {
    let clock: ManualClock
    let app: TacitApplication
    let databasePath: String
    var base: URL { URL(string: app.baseURL)! }
    static let cellular = SocketCellularTransport(sourceAddress: "127.0.0.2")
    static let wifi = SocketCellularTransport(sourceAddress: "127.0.0.1")
    static let api = SocketCellularTransport()

    /// Runs `body` against a started server and always shuts it down.
    static func with<T>(
        configure: (inout ServerConfiguration, inout TacitApplication.Dependencies) -> Void = { _, _ in },
        _ body: (SilentHarness) async throws -> T
    ) async throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-silent-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dev = true
        configuration.databasePath = path
        let clock = ManualClock()
        var dependencies = TacitApplication.Dependencies()
        dependencies.clock = clock
        configure(&configuration, &dependencies)
        DevProviders.wire(into: &dependencies, configuration: configuration)
        let app = TacitApplication(configuration: configuration, store: try SQLiteVerificationStore(path: path), dependencies: dependencies)
        try await app.start()
        let harness = SilentHarness(clock: clock, app: app, databasePath: path)
        do {
            let result = try await body(harness)
            await app.shutdown()
            return result
        } catch {
            await app.shutdown()
            throw error
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
        let request = CellularRequest(method: method, url: base.appending(path: path),
                                      headers: body == nil ? [:] : ["Content-Type": "application/json"], body: body.map { Data($0.utf8) })
        let response = try await Self.api.send(request)
        return (response.status, Self.json(response.body))
    }

    /// One hop from `transport` without following redirects.
    func fetch(_ url: String, over transport: SocketCellularTransport) async throws -> CellularResponse {
        try await transport.send(CellularRequest(url: URL(string: url)!))
    }

    /// Follows redirects hop by hop (as a device does) and returns the last answer.
    func follow(_ url: String, over transport: SocketCellularTransport) async throws -> CellularResponse {
        var next = URL(string: url)!
        for _ in 0..<10 {
            let response = try await transport.send(CellularRequest(url: next))
            guard (300..<400).contains(response.status), let location = response.header("location") else { return response }
            next = URL(string: location, relativeTo: next)!.absoluteURL
        }
        throw CellularTransportError(.invalidResponse, "too many redirects")
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
        guard let stream = app.eventHub?.subscribe(id) else { return }
        clock.advance(by: seconds)
        for await event in stream where event.label == label { break }
    }

    static func json(_ data: Data) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}
