import Foundation
import TacitCore
import TacitStore

/// The security parts built together from the configuration, for the composition root:
/// the gate in front of the router and the guard in front of the sender.
struct SecurityLayer: Sendable {
    let gate: SecurityGate
    let metrics: SecurityMetrics
    /// Who may use dev mode's keyless access; told the port once the server listens.
    let devAccess: DevAccess
    /// The event streams API keys hold open, ended when their key is revoked.
    let streams: OpenStreams
    /// The prefix counters and blocks, flushed to the store about once a second (`run`).
    let ledger: PrefixLedger
    /// Where the fraud rules' decisions go: metrics, the security log, `verification.blocked`.
    let decisions: FraudDecisions
    private let limiter: RateLimiter
    private let monitor: ConversionMonitor
    private let configuration: SecurityConfiguration
    private let clock: any TacitClock
    private let log: SecurityLog

    init(configuration server: ServerConfiguration, store: any VerificationStore, secrets: ServerSecrets,
         clock: any TacitClock, log: SecurityLog, outboxWritten: @escaping @Sendable () -> Void = {}) {
        let configuration = server.security
        let metrics = SecurityMetrics()
        // A store without shared counters still gets limits, counted by this process alone.
        let limiter = RateLimiter(store: store as? any RateLimitStore ?? ProcessRateLimits(),
                                  fields: secrets.fieldProtection)
        let windows = store as? any ConversionStore ?? ProcessConversionWindows()
        let monitor = ConversionMonitor(windows: windows, clock: clock, configuration: configuration, metrics: metrics,
                                        log: log)
        let ledger = PrefixLedger(store: store as? any PrefixLedgerStore ?? ProcessPrefixLedger(), clock: clock)
        let decisions = FraudDecisions(metrics: metrics, log: log, outbox: store,
                                       webhooks: WebhookPlanner(endpoints: server.webhooks.endpoints), clock: clock,
                                       outboxWritten: outboxWritten)
        // A store that keeps no keys accepts none: outside dev mode every /v1 call is then refused.
        let devAccess = DevAccess(host: server.host, port: server.port, publicURL: server.publicURL,
                                  tls: server.tls != nil)
        let authenticator = Authenticator(keys: store as? any KeyStore, store: store, secrets: secrets, clock: clock,
                                          dev: server.dev, devAccess: devAccess)
        gate = SecurityGate(
            authenticator: authenticator, limiter: limiter, configuration: configuration, store: store, clock: clock,
            dev: server.dev,
            starts: StartGuard(limiter: limiter, configuration: configuration, clock: clock, dev: server.dev,
                               metrics: metrics, log: log, safeLists: store as? any SafeListStore,
                               applications: store as? any ApplicationStore, testNumbers: store as? any TestNumberStore,
                               ledger: ledger, insights: store, decisions: decisions),
            checks: FailedCheckGuard(limiter: limiter, configuration: configuration, clock: clock, metrics: metrics),
            monitor: monitor, ledger: ledger, metrics: metrics)
        self.metrics = metrics
        self.ledger = ledger
        self.decisions = decisions
        self.devAccess = devAccess
        streams = OpenStreams(keys: store as? any KeyStore, clock: clock)
        self.limiter = limiter
        self.monitor = monitor
        self.configuration = configuration
        self.clock = clock
        self.log = log
    }

    /// Where the limits count: the store's shared counters, or this process's own.
    var rateLimitStore: any RateLimitStore { limiter.store }

    /// `sender` behind the destination lists and the per-number send limit.
    func guarding(_ sender: any MessageSender) -> any MessageSender {
        GuardedSender(inner: sender, limiter: limiter, configuration: configuration, clock: clock,
                      metrics: metrics, monitor: monitor, ledger: ledger, log: log)
    }
}
