import Foundation
import Synchronization
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitOperator
import TacitPhone
import TacitStore

/// The composition root: builds the store, engine, operator and routes from a
/// configuration, and runs them until shut down. No globals; tests build their own.
public final class TacitApplication: Sendable {
    /// What a test or an embedding program may replace.
    public struct Dependencies: Sendable {
        public var clock: any TacitClock = SystemClock()
        public var codes: CodeGenerator = .secure
        /// Verification ids: `vf_`, then 48 bits of milliseconds and 80 random bits in URL-safe base64.
        public var ids = IDGenerator.timeOrdered(prefix: "vf_")
        /// The production sender for numbers outside the virtual range.
        public var sender: any MessageSender = NoProviderSender()
        public var silentAuth: (any SilentAuthProvider)?
        public var simSwap: (any SimSwapChecker)?
        /// Where security warnings go (refused starts and sends, conversion drops).
        public var securityLog: SecurityLog = .standardError
        /// How webhooks reach their endpoints.
        public var webhookTransport: any WebhookTransport = URLSessionWebhookTransport()
        /// Jitter for webhook retries: a value in 0..<1 (fixed in tests).
        public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
        public init() {}
    }

    public let configuration: ServerConfiguration
    let store: any VerificationStore
    let dependencies: Dependencies
    private let state = Mutex<Running?>(nil)
    private let isReady = Atomic<Bool>(false)

    struct Running: Sendable {
        var server: HTTPServer
        var scheduler: Task<Void, Never>
        var rearmed: Task<Void, Never>
        var runner: WorkflowRunner
        var webhooks: WebhookDispatcher
        var webhookTask: Task<Void, Never>
        var inbox: HandsetInbox?
    }

    public init(configuration: ServerConfiguration, store: any VerificationStore, dependencies: Dependencies = Dependencies()) {
        self.configuration = configuration
        self.store = store
        self.dependencies = dependencies
    }

    /// Migrates the store, re-arms every pending timer, starts listening and firing timers.
    public func start() async throws {
        try await store.migrate()
        let secrets = try await ServerSecrets.load(configured: configuration.secret, store: store)
        store.protect(with: secrets.fieldProtection)
        let clock = dependencies.clock
        let metrics = Metrics()
        let security = SecurityLayer(configuration: configuration, store: store, secrets: secrets, clock: clock, log: dependencies.securityLog)
        metrics.addSection(security.metrics.render)
        let hub = EventHub()
        let timers = TimerScheduler(clock: clock)
        let inbox = configuration.dev ? HandsetInbox(clock: clock) : nil
        let sender = security.guarding(inbox.map { RoutingSender(inbox: $0, fallback: dependencies.sender) } ?? dependencies.sender)
        let network = makeOperator(clock: clock)
        let silentKeys = SilentKeys(secrets: secrets, operatorKey: operatorKey(network))
        let doorbell = Wakeup()
        let runner = WorkflowRunner(
            store: store, clock: clock, secrets: secrets, codes: dependencies.codes, sender: sender,
            silent: CheckURLIssuer(network: dependencies.silentAuth ?? network ?? UnavailableSilentAuth(), keys: silentKeys),
            simSwap: dependencies.simSwap ?? network ?? NoSimSwapChecker(),
            timers: timers, hub: hub, metrics: metrics,
            webhooks: WebhookPlanner(endpoints: configuration.webhooks.endpoints), outboxWritten: { doorbell.signal() })
        let webhooks = WebhookDispatcher(
            store: store, clock: clock, settings: configuration.webhooks, transport: dependencies.webhookTransport,
            random: dependencies.random, wakeup: doorbell,
            timeline: { id, draft in _ = try? await runner.transition(id, events: [draft]) { _ in } })

        var router = RouteTable(metrics: metrics)
        VerificationRoutes(runner: runner, store: store, secrets: secrets, ids: dependencies.ids, phones: PhoneNumberParser(),
                           allowVirtualRange: configuration.dev).register(&router)
        TimelineRoutes(runner: runner, store: store, secrets: secrets, hub: hub).register(&router)
        CallbackRoutes(runner: runner, store: store, settings: configuration.callbacks,
                       baseURL: { [weak self] in self?.baseURL ?? "" }).register(&router)
        ServiceRoutes(store: store, metrics: metrics, timers: timers, hub: hub, inbox: inbox, assets: ConsoleAssets(),
                      ready: { [weak self] in self?.isReady.load(ordering: .relaxed) ?? false }).register(&router)
        SilentRoutes(flow: SilentFlow(runner: runner, keys: silentKeys),
                     devHandsets: configuration.dev ? DevSilentCheck(store: store, keys: silentKeys) : nil).register(&router)
        if let network { OperatorRoutes(network: network).register { router.add($0, $1, $2) } }
        let routes = router.router
        let gate = security.gate
        let server = HTTPServer(configuration: httpConfiguration()) { request in await gate.handle(request) { await routes.handle($0) } }
        try server.start()
        silentKeys.baseURL = configuration.baseURL(port: server.port)
        network?.baseURL = configuration.baseURL(port: server.port)
        // The scheduler is the one long-running task the application owns; shutdown cancels it.
        // Pending timers are re-armed from the store after the server is up, so readiness
        // doesn't wait on them: overdue ones fire as soon as they are loaded.
        let store = self.store
        let rearmed = Task { await Self.rearm(timers, from: store) }
        let scheduler = Task {
            await rearmed.value
            await timers.run { id in await runner.timerFired(id) }
        }
        // The webhook worker is the other one; it picks up rows left by a previous run.
        let webhookTask = Task { await webhooks.run() }
        state.withLock {
            $0 = Running(server: server, scheduler: scheduler, rearmed: rearmed, runner: runner, webhooks: webhooks, webhookTask: webhookTask, inbox: inbox)
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

    /// Every webhook delivery attempt, in order (for tests and embedders watching delivery).
    public var webhookAttempts: AsyncStream<WebhookAttempt>? { state.withLock { $0?.webhooks.attempts } }

    public func shutdown() async {
        isReady.store(false, ordering: .relaxed)
        guard let running = state.withLock({ $0 }) else { return }
        running.scheduler.cancel()
        running.webhookTask.cancel()
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
