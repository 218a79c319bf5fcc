import Foundation
import Synchronization
import TacitCore
import TacitProvidersDev
import TacitServer
import TacitStore
import TacitStoreSQLite

/// A Tacit application for tests, as HummingbirdTesting's `app.test(.router | .live)`:
/// the same routes, fakes and client whether requests go over loopback HTTP or straight
/// to the gated router in process.
///
/// It brings a `ManualClock`, a `RecordingSender` (every message the server sends), a
/// `RecordingHTTPClient`, the security log's lines and a temporary SQLite file, removed
/// afterwards. Use it through `test(_:configure:_:)`, which always stops the application.
public final class TestApplication: Sendable {
    /// How requests reach the application.
    public enum Mode: Sendable {
        /// Each request is an `HTTPRequest` handed to the gated routes: no socket.
        case inProcess
        /// Real HTTP on an ephemeral loopback port.
        case live
        /// Real HTTPS on an ephemeral loopback port, served with `TestCertificates.shared`'s
        /// loopback certificate; the client trusts the test CA and nothing else extra.
        case liveTLS
    }

    public let mode: Mode
    public let clock: ManualClock
    public let sender: RecordingSender
    public let httpClient: RecordingHTTPClient
    /// The SQLite file the application uses unless given a store; removed afterwards.
    public let databasePath: String
    public let configuration: ServerConfiguration
    /// The temporary directory the SQLite file lives in unless `configure` moved it.
    let directory: URL
    let dependencies: TacitApplication.Dependencies
    let givenStore: (any VerificationStore)?
    let logLines: LineLog
    let current = Mutex<(application: TacitApplication, store: any VerificationStore)?>(nil)
    let supervisor: Supervisor

    init(mode: Mode, clock: ManualClock, store: (any VerificationStore)?, sender: RecordingSender,
         configure: (inout ServerConfiguration, inout TacitApplication.Dependencies) -> Void) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let lines = LineLog()
        var configuration = Self.configuration(databasePath: directory.appendingPathComponent("tacit.db").path)
        if mode == .liveTLS { configuration.tls = TestCertificates.shared.loopback.credentials }
        let httpClient = RecordingHTTPClient()
        var dependencies = Self.dependencies(clock: clock, sender: sender, httpClient: httpClient, log: lines)
        configure(&configuration, &dependencies)
        self.directory = directory
        self.mode = mode
        self.clock = clock
        self.sender = sender
        self.httpClient = httpClient
        self.databasePath = configuration.databasePath
        self.configuration = configuration
        self.givenStore = store
        self.supervisor = Supervisor()
        self.logLines = lines
        self.dependencies = dependencies
    }

    /// A dev-mode server on an ephemeral loopback port.
    static func configuration(databasePath: String) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.dev = true
        configuration.databasePath = databasePath
        return configuration
    }

    /// The test's clock and sender, fixed webhook jitter, and a security log the test can read.
    static func dependencies(clock: ManualClock, sender: RecordingSender, httpClient: RecordingHTTPClient,
                             log: LineLog) -> TacitApplication.Dependencies {
        var dependencies = TacitApplication.Dependencies()
        dependencies.clock = clock
        dependencies.sender = sender
        dependencies.httpClient = httpClient
        dependencies.random = { 0.5 }
        dependencies.securityLog = SecurityLog { line in log.append(line) }
        dependencies.faces = TestFaces.all
        return dependencies
    }

    /// Builds an application, runs `body` with it and a client, and always stops it and
    /// removes its files. `configure` starts from a dev-mode server on port 0 with the
    /// test clock, `sender` and fixed webhook jitter; `store` replaces the
    /// SQLite file (and is kept across `restart`).
    public static func test<T>(
        _ mode: Mode, clock: ManualClock = ManualClock(), store: (any VerificationStore)? = nil,
        sender: RecordingSender = RecordingSender(),
        configure: (inout ServerConfiguration, inout TacitApplication.Dependencies) -> Void = { _, _ in },
        _ body: (TestApplication, TestClient) async throws -> T
    ) async throws -> T {
        let app = TestApplication(mode: mode, clock: clock, store: store, sender: sender, configure: configure)
        defer { app.removeFiles() }
        try app.install(app.makeApplication())
        return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
            group.addTask { try await app.supervise() }
            do {
                _ = try await app.application.listening()
                let result = try await body(app, TestClient(app))
                group.cancelAll()
                try await group.waitForAll()
                return result
            } catch {
                group.cancelAll()
                throw error
            }
        }
    }

    /// The one place a test's `TacitApplication` is built, from the configuration,
    /// the store and the dependencies.
    func makeApplication() throws -> (application: TacitApplication, store: any VerificationStore) {
        let store = try givenStore ?? SQLiteVerificationStore(path: databasePath)
        var dependencies = self.dependencies
        DevProviders.wire(into: &dependencies, configuration: configuration, state: store.sharedDevState)
        return (TacitApplication(configuration: configuration, store: store, dependencies: dependencies), store)
    }

    func install(_ built: (application: TacitApplication, store: any VerificationStore)) {
        current.withLock { $0 = built }
    }

    /// The running application (after a `restart`, the new one).
    public var application: TacitApplication { current.withLock { $0!.application } }
    /// The running application's store.
    public var store: any VerificationStore { current.withLock { $0!.store } }
    /// Where the running application is reached over HTTP (in process, a URL no one listens on).
    public var baseURL: String { application.baseURL }
    /// The security log's lines so far, unless `configure` set another log.
    public var securityLogLines: [String] { logLines.lines }

    /// Moves the clock and fires whatever timers became due, waiting for them.
    public func advance(by seconds: TimeInterval) async {
        clock.advance(by: seconds)
        await application.fireDueTimers()
    }

    func removeFiles() {
        // Only what this application made: a database path set by `configure` is the test's own.
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Lines written from any thread, kept in order.
final class LineLog: Sendable {
    private let state = Mutex<[String]>([])
    func append(_ line: String) { state.withLock { $0.append(line) } }
    var lines: [String] { state.withLock { $0 } }
}
