import Foundation
import TacitCore
import TacitOperator
import TacitPhone
import TacitStore

/// How `start()` assembles the application: the engine and its collaborators, then
/// the routes over them.
extension TacitApplication {
    /// Everything the routes and the workers share.
    struct Engine: Sendable {
        var runner: WorkflowRunner
        var webhooks: WebhookDispatcher
        var security: SecurityLayer
        var metrics: Metrics
        var hub: EventHub
        var inbox: HandsetInbox?
        var network: VirtualOperator?
        var silentKeys: SilentKeys
    }

    func makeEngine(secrets: ServerSecrets) -> Engine {
        let clock = dependencies.clock
        let metrics = Metrics()
        let security = SecurityLayer(configuration: configuration, store: store, secrets: secrets, clock: clock, log: dependencies.securityLog)
        metrics.addSection(security.metrics.render)
        let hub = EventHub()
        let inbox = configuration.dev ? HandsetInbox(clock: clock) : nil
        let sender = security.guarding(inbox.map { RoutingSender(inbox: $0, fallback: dependencies.sender) } ?? dependencies.sender)
        let network = makeOperator(clock: clock)
        let silentKeys = SilentKeys(secrets: secrets, operatorKey: operatorKey(network))
        let doorbell = Wakeup()
        let runner = WorkflowRunner(
            store: store, clock: clock, secrets: secrets, codes: dependencies.codes, sender: sender,
            silent: CheckURLIssuer(network: dependencies.silentAuth ?? network ?? UnavailableSilentAuth(), keys: silentKeys),
            simSwap: dependencies.simSwap ?? network ?? NoSimSwapChecker(),
            timers: TimerScheduler(clock: clock), hub: hub, metrics: metrics,
            webhooks: WebhookPlanner(endpoints: configuration.webhooks.endpoints), outboxWritten: { doorbell.signal() })
        let webhooks = WebhookDispatcher(
            store: store, clock: clock, settings: configuration.webhooks, transport: dependencies.webhookTransport,
            random: dependencies.random, wakeup: doorbell,
            timeline: { id, draft in _ = try? await runner.transition(id, events: [draft]) { $0.summarizeAgainIfFinished() } })
        return Engine(runner: runner, webhooks: webhooks, security: security, metrics: metrics, hub: hub,
                      inbox: inbox, network: network, silentKeys: silentKeys)
    }

    func makeRoutes(_ engine: Engine, secrets: ServerSecrets) -> RouteTable {
        let runner = engine.runner
        var router = RouteTable(metrics: engine.metrics, gate: engine.security.gate)
        VerificationRoutes(runner: runner, store: store, secrets: secrets, ids: dependencies.ids, phones: PhoneNumberParser(),
                           allowVirtualRange: configuration.dev).register(&router)
        TimelineRoutes(runner: runner, store: store, secrets: secrets, hub: engine.hub).register(&router)
        CallbackRoutes(runner: runner, store: store, settings: configuration.callbacks,
                       baseURL: { [weak self] in self?.baseURL ?? "" }).register(&router)
        ServiceRoutes(store: store, metrics: engine.metrics, timers: runner.timers, hub: engine.hub, inbox: engine.inbox,
                      assets: ConsoleAssets(), ready: { [weak self] in self?.ready ?? false }).register(&router)
        SilentRoutes(flow: SilentFlow(runner: runner, keys: engine.silentKeys),
                     devHandsets: configuration.dev ? DevSilentCheck(store: store, keys: engine.silentKeys) : nil).register(&router)
        // Open: the operator checks its own access tokens, as a real network's API would.
        if let network = engine.network { OperatorRoutes(network: network).register { router.add($0, $1, .open, $2) } }
        return router
    }
}
