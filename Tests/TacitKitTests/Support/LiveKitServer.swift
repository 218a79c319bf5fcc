import Foundation
import Synchronization
import TacitKit
import TacitServer
import TacitStoreSQLite
import TacitTesting
import TacitProvidersDev

/// A real dev Tacit server (virtual operator on) on an ephemeral loopback port, with
/// a temp SQLite file and a ManualClock, driven through TacitKit as an app would.
struct LiveKitServer: Sendable {
    let app: TacitApplication
    let clock: ManualClock
    let base: URL
    var client: TacitClient { TacitClient(baseURL: base) }
    static let cellular = SocketCellularTransport(sourceAddress: "127.0.0.2")
    static let wifi = SocketCellularTransport(sourceAddress: "127.0.0.1")
    static let api = SocketCellularTransport()

    /// Runs `body` against a started server and always shuts it down.
    static func with(_ body: (LiveKitServer) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-kit-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.dev = true
        configuration.databasePath = path
        // Real "now", as the SDK bounds a silent check by the server's expires_at; whole
        // seconds, as stored deadlines are rounded to milliseconds.
        let clock = ManualClock(start: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        var dependencies = TacitApplication.Dependencies()
        dependencies.clock = clock
        DevProviders.wire(into: &dependencies, configuration: configuration)
        let app = TacitApplication(configuration: configuration, store: try SQLiteVerificationStore(path: path), dependencies: dependencies)
        try await app.start()
        let server = LiveKitServer(app: app, clock: clock, base: URL(string: app.baseURL)!)
        do { try await body(server) } catch {
            await app.shutdown()
            throw error
        }
        await app.shutdown()
    }

    /// A driver whose silent check runs the SDK's device flow over `transport`,
    /// counting its runs.
    func driver(over transport: any CellularTransport = cellular, runs: Counter = Counter()) -> VerificationFlowDriver {
        let base = base
        return VerificationFlowDriver(service: client, pollInterval: .milliseconds(200)) { verification in
            runs.add()
            return await SilentAuth.run(verification, baseURL: base, transport: transport, apiTransport: Self.api)
        }
    }

    /// Starts a verification and collects every screen state to the end, entering
    /// the SMS code from the virtual handset whenever the flow asks for one.
    func collect(_ driver: VerificationFlowDriver, _ request: StartVerificationRequest) async throws -> [VerificationFlow.State] {
        var states: [VerificationFlow.State] = []
        for await state in driver.start(request) {
            states.append(state)
            if case .enteringSmsCode(let id) = state {
                _ = try await client.check(id, code: try await smsCode(id, request.phoneNumber))
            }
        }
        return states
    }

    /// The SMS code the handset received, read once the server's `sms:code_sent` event says it was sent.
    func smsCode(_ id: String, _ number: String) async throws -> String {
        for try await event in client.eventStream(id) where event.label == "sms:code_sent" { break }
        guard let code = try await client.handsetInbox(number).last(where: { $0.channel == .sms })?.code else {
            throw TacitError(type: "no-code", status: 0)
        }
        return code
    }

    /// The labels of the request's timeline so far.
    func labels(_ id: String) async throws -> [String] {
        try await client.events(id).map(\.label)
    }

    /// Moves the server's clock and fires the timers that became due.
    func advance(by seconds: TimeInterval) async {
        clock.advance(by: seconds)
        await app.fireDueTimers()
    }
}

/// A thread-safe count, for closures that run on other tasks.
final class Counter: Sendable {
    private let value = Mutex(0)
    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Forwards to another transport, counting requests and letting a test act before each.
struct HookTransport: CellularTransport {
    let inner: any CellularTransport
    let hook: @Sendable (CellularRequest, Int) throws -> Void
    let sent = Counter()
    var isAvailable: Bool { inner.isAvailable }

    func send(_ request: CellularRequest) async throws -> CellularResponse {
        sent.add()
        try hook(request, sent.count)
        return try await inner.send(request)
    }
}
