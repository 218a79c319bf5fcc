import Foundation
import Synchronization
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitStore

/// The composition root: builds the store, engine and routes (with the providers' own) from a
/// configuration, and runs them until shut down. No globals; tests build their own.
public final class TacitApplication: Sendable {
    public let configuration: ServerConfiguration
    let store: any VerificationStore
    let dependencies: Dependencies
    private let state = Mutex<Running?>(nil)
    private let isReady = Atomic<Bool>(false)

    /// Whether `/readyz` answers 200.
    var ready: Bool { isReady.load(ordering: .relaxed) }

    struct Running: Sendable {
        var server: HTTPServer
        var scheduler: Task<Void, Never>
        var rearmed: Task<Void, Never>
        var runner: WorkflowRunner
        var webhooks: WebhookDispatcher
        var webhookTask: Task<Void, Never>
        var sweeper: Task<Void, Never>
    }

    public init(configuration: ServerConfiguration, store: any VerificationStore, dependencies: Dependencies = Dependencies()) {
        self.configuration = configuration
        self.store = store
        self.dependencies = dependencies
    }

    /// Migrates the store, starts listening, then re-arms pending timers and starts the
    /// timer and webhook workers.
    public func start() async throws {
        try await store.migrate()
        let secrets = try await ServerSecrets.load(configured: configuration.secret, store: store)
        store.protect(with: secrets.fieldProtection)
        let engine = makeEngine(secrets: secrets)
        let routes = makeRoutes(engine, secrets: secrets).router
        let gate = engine.security.gate
        let server = HTTPServer(configuration: httpConfiguration()) { request in await gate.handle(request) { await routes.handle($0) } }
        try server.start()
        engine.silentKeys.baseURL = configuration.baseURL(port: server.port)
        for mount in dependencies.mounts { mount.listening(at: configuration.baseURL(port: server.port)) }
        // Pending timers are re-armed from the store after the server is up, so readiness
        // doesn't wait on them: overdue ones fire as soon as they are loaded. The scheduler
        // the webhook worker and the housekeeper are the long-running tasks the application
        // owns; shutdown cancels them.
        let store = self.store, runner = engine.runner, webhooks = engine.webhooks
        let housekeeper = Housekeeper(store: store, rates: engine.security.rateLimitStore, clock: dependencies.clock,
                                      interval: configuration.housekeepingInterval,
                                      idempotencyRetention: configuration.idempotencyRetention)
        let rearmed = Task { await Self.rearm(runner.timers, from: store) }
        let scheduler = Task {
            await rearmed.value
            await runner.timers.run { id in await runner.timerFired(id) }
        }
        let webhookTask = Task { await webhooks.run() }
        let sweeper = Task { await housekeeper.run() }
        state.withLock {
            $0 = Running(server: server, scheduler: scheduler, rearmed: rearmed, runner: runner,
                         webhooks: webhooks, webhookTask: webhookTask, sweeper: sweeper)
        }
        isReady.store(true, ordering: .relaxed)
    }

    /// Fires every timer that is due on the clock now and waits for them: what the
    /// scheduler's own task does when it wakes, callable by tests after moving a ManualClock.
    public func fireDueTimers() async {
        guard let running = state.withLock({ $0 }) else { return }
        let runner = running.runner
        await running.rearmed.value
        await runner.timers.fireDue { id in await runner.timerFired(id) }
    }

    /// Loads every pending deadline into the scheduler, retrying while the store can't answer.
    static func rearm(_ timers: TimerScheduler, from store: any VerificationStore) async {
        for attempt in 1...20 {
            do {
                timers.schedule(try await store.deadlines(limit: .max))
                return
            } catch {
                FileHandle.standardError.write(Data("tacit: pending timers could not be loaded yet (\(error)); attempt \(attempt)\n".utf8))
                try? await Task.sleep(for: .milliseconds(100 * attempt))
            }
        }
    }

    /// The port the server listens on (useful with port 0).
    public var port: Int { state.withLock { $0?.server.port ?? 0 } }
    public var baseURL: String { configuration.baseURL(port: port) }
    /// The live event fan-out, for tests that wait for a timer's effect without polling.
    var eventHub: EventHub? { state.withLock { $0?.runner.hub } }
    /// The step timers, for tests that arm one the way a racing restart can.
    var timers: TimerScheduler? { state.withLock { $0?.runner.timers } }

    /// Every webhook delivery attempt, in order (for tests and embedders watching delivery).
    public var webhookAttempts: AsyncStream<WebhookAttempt>? { state.withLock { $0?.webhooks.attempts } }

    public func shutdown() async {
        isReady.store(false, ordering: .relaxed)
        guard let running = state.withLock({ $0 }) else { return }
        running.scheduler.cancel()
        running.webhookTask.cancel()
        running.sweeper.cancel()
        await running.server.shutdown()
        state.withLock { $0 = nil }
    }

    private func httpConfiguration() -> HTTPServer.Configuration {
        var http = HTTPServer.Configuration()
        http.host = configuration.host
        http.port = configuration.port
        http.threadPoolSize = configuration.threadPoolSize
        http.maxInFlight = configuration.maxInFlight
        http.exemptPaths = ["/healthz", "/readyz", "/metrics"]
        return http
    }
}
