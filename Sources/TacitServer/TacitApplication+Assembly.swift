import Foundation
import TacitCore
import TacitPhone
import TacitStore

/// How `start()` assembles the application: the engine and its collaborators, then
/// the routes over them.
extension TacitApplication {
    /// Everything the routes and the workers share.
    struct Engine: Sendable {
        var runner: WorkflowRunner
        var webhooks: WebhookDispatcher
        var sends: SendWorker
        var security: SecurityLayer
        var metrics: Metrics
        var hub: EventHub
        var silentKeys: SilentKeys
        var silentFlow: SilentFlow
        /// The drop-in faces, as this application serves them.
        var faces: ServedFaces
    }

    func makeEngine(secrets: ServerSecrets) -> Engine {
        let clock = dependencies.clock
        let metrics = Metrics()
        let doorbell = Wakeup()
        let security = SecurityLayer(configuration: configuration, store: store, secrets: secrets, clock: clock,
                                     log: dependencies.securityLog, outboxWritten: { doorbell.signal() })
        metrics.addSection(security.metrics.render)
        if let section = dependencies.sender as? any MetricsSection { metrics.addSection(section.renderMetrics) }
        let hub = EventHub()
        let sender = security.guarding(dependencies.sender)
        let silentKeys = SilentKeys(secrets: secrets)
        let faces = FaceDirectory(dependencies.faces)
        let runner = WorkflowRunner(
            store: store, clock: clock, secrets: secrets, codes: dependencies.codes, sender: sender,
            silent: CheckURLIssuer(network: dependencies.silentAuth ?? UnavailableSilentAuth(), keys: silentKeys),
            simSwap: dependencies.simSwap ?? NoSimSwapChecker(),
            timers: TimerScheduler(clock: clock), hub: hub, metrics: metrics,
            webhooks: WebhookPlanner(endpoints: configuration.webhooks.endpoints, faces: faces),
            outboxWritten: { doorbell.signal() },
            sends: SendOutbox(fields: secrets.fieldProtection, waitBound: configuration.sendWait), faces: faces,
            prices: configuration.prices, fraud: security.decisions)
        let sends = SendWorker(runner: runner)
        metrics.addSection(runner.sends.renderMetrics)
        let verdicts = SilentVerdictReaders(byProvider: dependencies.silentVerdictReaders,
                                            fallback: dependencies.silentVerdicts ?? NoSilentVerdicts())
        let silentFlow = SilentFlow(runner: runner, keys: silentKeys, verdicts: verdicts)
        let served = serve(dependencies.faces, runner: runner, silent: silentFlow)
        let webhooks = WebhookDispatcher(
            store: store, clock: clock, settings: configuration.webhooks, httpClient: dependencies.httpClient,
            random: dependencies.random, wakeup: doorbell, faces: served,
            timeline: { id, draft in
                // Best effort: a result the store can't take now goes unrecorded. `.eventRecorded` is never refused.
                _ = try? await runner.transition(id, events: [draft]) { try $0.handle(.eventRecorded) }
            })
        return Engine(runner: runner, webhooks: webhooks, sends: sends, security: security, metrics: metrics, hub: hub,
                      silentKeys: silentKeys, silentFlow: silentFlow, faces: served)
    }

    func makeRoutes(_ engine: Engine, secrets: ServerSecrets) -> RouteTable {
        let runner = engine.runner
        var router = RouteTable(metrics: engine.metrics, gate: engine.security.gate.serving(engine.faces))
        let checks = dependencies.silentProviderChecks
        let assets = ConsoleAssets()
        VerificationRoutes(runner: runner, store: store, secrets: secrets, ids: dependencies.ids,
                           phones: PhoneNumberParser(), allowVirtualRange: configuration.dev,
                           providerChecks: { checks[$0] }).register(&router)
        InsightRoutes(store: store, cursors: ListCursor(secrets: secrets)).register(&router)
        TimelineRoutes(runner: runner, store: store, secrets: secrets, hub: engine.hub,
                       deviceEvents: engine.security.deviceEventGuard(limits: configuration.security.timeline,
                                                                      secrets: secrets, clock: dependencies.clock),
                       limits: configuration.security.timeline,
                       streams: engine.security.streams).register(&router)
        CallbackRoutes(runner: runner, store: store, callbacks: dependencies.callbacks,
                       baseURL: { [weak self] in self?.baseURL ?? "" },
                       ledger: engine.security.ledger).register(&router)
        ServiceRoutes(store: store, metrics: engine.metrics, timers: runner.timers, hub: engine.hub,
                      clock: runner.clock, assets: assets,
                      ready: { [weak self] in self?.ready ?? false }).register(&router)
        SilentRoutes(flow: engine.silentFlow).register(&router)
        TemplateRoutes(manager: TemplateManager(store: store), clock: dependencies.clock).register(&router)
        FraudRoutes(blocks: (store as? any PrefixLedgerStore).map {
            PrefixBlockManager(store: $0, clock: dependencies.clock, ledger: engine.security.ledger)
        }).register(&router)
        SettingsRoutes(store: store, clock: dependencies.clock).register(&router)
        for face in engine.faces.byName.values { face.register(&router) }
        mountProviders(on: &router, keys: engine.silentKeys)
        return router
    }

    /// The faces as this application serves them, over the engine every face shares.
    func serve(_ faces: [any CompatibleFace], runner: WorkflowRunner, silent: SilentFlow) -> ServedFaces {
        let context = FaceContext(runner: runner,
                                  applications: (store as? any ApplicationStore).map(ApplicationDirectory.init),
                                  phones: PhoneNumberParser(), allowVirtualRange: configuration.dev, silent: silent)
        return ServedFaces(Dictionary(faces.map { ($0.name, $0.serve(in: context)) },
                                      uniquingKeysWith: { first, _ in first }))
    }

    /// Adds the routes the providers bring (the virtual operator's, the dev tools').
    func mountProviders(on router: inout RouteTable, keys: SilentKeys) {
        let store = self.store
        let context = ProviderContext(verification: { try await store.verification(id: $0) }, clock: dependencies.clock,
                                      baseURL: { keys.baseURL },
                                      checkURLVerification: { keys.verificationId(ofCheckURL: $0) })
        for route in dependencies.mounts.flatMap({ $0.routes(in: context) }) {
            router.add(route.method, route.pattern, route.exposure.security, throwing: route.answeringProblems)
        }
    }
}
