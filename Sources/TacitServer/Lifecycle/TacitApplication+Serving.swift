import Foundation
import TacitHTTP
import TacitStore

/// How `run(serving:)` is carried out: assembly first (everything but the socket), then
/// the listener and the workers as one task group.
extension TacitApplication {
    /// The assembled application: the engine, and the gated handler every request goes
    /// through, whether it came over a socket or from `handle(_:)`.
    struct Assembly: Sendable {
        var engine: Engine
        var handler: HTTPHandler
        var housekeeper: Housekeeper
        /// Arms timers that other instances sharing the store left.
        var deadlines: DeadlinePoller
        /// Settled once the pending timers are loaded from the store.
        var rearmed: StartupSignal<Void>
    }

    /// Migrates the store, loads the secrets, and builds the engine, the routes and the
    /// security gate in front of them.
    func assemble() async throws -> Assembly {
        try await store.migrate()
        // Keyless dev callers act for `dev` (docs/api.md#access), an application like any other, so
        // `tacit apps list` shows it and `tacit apps set dev …` sets its defaults.
        if configuration.dev, let applications = store as? any ApplicationStore {
            _ = try await applications.ensureApplication(Application(id: Application.devID, name: Application.devID,
                                                                     createdAt: dependencies.clock.now()))
        }
        let secrets = try await ServerSecrets.load(configuration: configuration, store: store)
        store.protect(with: secrets.fieldProtection)
        let engine = makeEngine(secrets: secrets)
        let routes = makeRoutes(engine, secrets: secrets).router
        let housekeeper = Housekeeper(store: store, rates: engine.security.rateLimitStore, clock: dependencies.clock,
                                      interval: configuration.housekeepingInterval,
                                      idempotencyRetention: configuration.idempotencyRetention,
                                      retention: configuration.retention)
        engine.metrics.addSection(housekeeper.metrics.render)
        let deadlines = DeadlinePoller(store: store, timers: engine.runner.timers, clock: dependencies.clock,
                                       interval: configuration.timerPollInterval)
        return Assembly(engine: engine, handler: { request in await routes.handle(request) },
                        housekeeper: housekeeper, deadlines: deadlines, rearmed: StartupSignal())
    }

    /// Listens (unless in process), then runs the workers until cancelled.
    func serve(_ assembly: Assembly, serving: Serving) async throws {
        let server = serving == .http ? HTTPServer(configuration: httpConfiguration(), handler: assembly.handler) : nil
        try server?.start()
        let port = server?.port ?? configuration.port
        boundPort.store(port, ordering: .relaxed)
        assembly.engine.security.devAccess.listening(port: port)
        assembly.engine.silentKeys.baseURL = configuration.baseURL(port: port)
        for mount in dependencies.mounts { mount.listening(at: configuration.baseURL(port: port)) }
        assembled.withLock { $0 = assembly }
        defer { assembled.withLock { $0 = nil } }
        try await withThrowingDiscardingTaskGroup { group in
            // HTTPServer.run drains on cancellation: it stops accepting, lets running
            // handlers finish within its grace period, then closes.
            if let server {
                group.addTask { try await server.run() }
            } else {
                group.addTask { await Self.untilCancelled() }
            }
            group.addTask { await Self.runTimers(assembly, store: self.store) }
            if configuration.webhooks.runsWorker { group.addTask { await assembly.engine.webhooks.run() } }
            if let relay = changeRelay(assembly.engine) { group.addTask { await relay.run() } }
            group.addTask { await assembly.engine.sends.run() }
            group.addTask { await assembly.engine.security.streams.run() }
            group.addTask { await assembly.engine.security.ledger.run() }
            group.addTask { await assembly.housekeeper.run() }
            let receipts = ProviderReceiptSink(runner: assembly.engine.runner, store: self.store,
                                               ledger: assembly.engine.security.ledger)
            for source in dependencies.receiptSources { group.addTask { await source.run(receipts: receipts) } }
            if !Task.isCancelled, !draining.load(ordering: .relaxed) { isReady.store(true, ordering: .relaxed) }
            started.succeed(port)
        }
    }

    /// What carries the other instances' writes to this one, when the store is shared.
    func changeRelay(_ engine: Engine) -> ChangeRelay? {
        guard let feed = store as? any ChangeFeed else { return nil }
        let webhooks = engine.webhooks
        return ChangeRelay(feed: feed, store: store, hub: engine.hub, outboxWritten: { webhooks.nudge() })
    }

    /// Pending timers are re-armed from the store after the server is up, so readiness
    /// doesn't wait on them: overdue ones fire as soon as they are loaded.
    static func runTimers(_ assembly: Assembly, store: any VerificationStore) async {
        let runner = assembly.engine.runner
        await rearm(runner.timers, from: store)
        assembly.rearmed.succeed(())
        await withDiscardingTaskGroup { group in
            group.addTask { await assembly.deadlines.run() }
            group.addTask { await runner.timers.run { id in await runner.timerFired(id) } }
        }
    }

    /// Loads every pending deadline into the scheduler, retrying while the store can't answer.
    static func rearm(_ timers: TimerScheduler, from store: any VerificationStore) async {
        for attempt in 1...20 {
            do {
                timers.schedule(try await store.deadlines(limit: .max))
                return
            } catch {
                FileHandle.standardError.write(
                    Data("tacit: pending timers could not be loaded yet (\(error)); attempt \(attempt)\n".utf8))
                try? await Task.sleep(for: .milliseconds(100 * attempt))
            }
        }
    }

    /// What stands in for the listener in process: nothing to do until cancelled.
    static func untilCancelled() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3_600))
        }
    }

    func httpConfiguration() -> HTTPServer.Configuration {
        var http = HTTPServer.Configuration()
        http.host = configuration.host
        http.port = configuration.port
        http.threadPoolSize = configuration.threadPoolSize
        http.maxInFlight = configuration.maxInFlight
        http.connectionsPerAddress = configuration.connectionsPerAddress
        http.exemptPaths = ["/healthz", "/readyz", "/metrics"]
        http.tls = configuration.tls
        return http
    }
}
