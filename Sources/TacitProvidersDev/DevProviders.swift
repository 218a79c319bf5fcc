import Foundation
import TacitCore
import TacitCrypto
import TacitOperator
import TacitProviderKit
import TacitStore

/// The development providers, and the one place that names them: the virtual
/// operator (silent auth, SIM Swap, its gateway and CAMARA routes), the handset inbox
/// that plays the `+990` phones' screens and every address's mailbox, and the virtual
/// phone's silent-check button.
/// The `tacit` executable and every test harness wire them through ``wire(into:configuration:)``.
public enum DevProviders {
    /// Fills `dependencies` with the dev providers `configuration` asks for. Call it
    /// once the clock is set, since the operator runs on it; providers already set
    /// (a test's silent-auth provider or verdict reader) are kept, and a sender already
    /// set is wrapped: the inbox takes the virtual range, the sender everything else.
    ///
    /// - `operatorSecret` set: callbacks are judged by the virtual operator's signed
    ///   answers, under the key derived from the secret (an operator on its own port).
    /// - `dev` on: the in-process operator on this server's port (silent auth and SIM
    ///   Swap unless given), its routes, and the handset inbox in front of `sender` for
    ///   the virtual range and for email, with its dev routes.
    /// - Neither: nothing is wired; the server has no dev provider at all.
    ///
    /// With `state` (the application's store), the operator's gateway sessions and key
    /// and the handsets' inboxes are kept there rather than in this process, so several
    /// instances on one database continue each other's checks
    /// (docs/postgres.md#--dev-on-several-instances). A configured operator secret still
    /// names the key.
    ///
    /// `clients` are the API consumers the operator's authorization server knows (the CAMARA
    /// client, when CAMARA is aimed at this operator; docs/operator.md).
    public static func wire(into dependencies: inout some ProviderPorts, configuration: some DevModeSettings,
                            state: (any DevStateStore)? = nil, clients: [OperatorClient] = []) {
        let key = operatorKey(configuration)
        guard configuration.dev else {
            if let key { dependencies.silentVerdicts = dependencies.silentVerdicts ?? OperatorAnswerReader(key: key) }
            return
        }
        var settings = OperatorConfiguration(signingKey: key ?? SecureRandom.bytes(32))
        settings.latencyMilliseconds = configuration.operatorLatencyMilliseconds
        settings.clients = clients
        var keys: any OperatorKeySource = FixedOperatorKey(settings.signingKey)
        var sessions: any GatewaySessionStore = GatewaySessions()
        if let state {
            if key == nil { keys = StoredOperatorKey(store: state) }
            sessions = StoredGatewaySessions(store: state)
        }
        let network = VirtualOperator(configuration: settings, clock: dependencies.clock, sessions: sessions,
                                      keys: keys)
        dependencies.silentVerdicts = dependencies.silentVerdicts ?? OperatorAnswerReader(keys: keys)
        dependencies.silentAuth = dependencies.silentAuth ?? network
        dependencies.simSwap = dependencies.simSwap ?? network
        let inbox = HandsetInbox(clock: dependencies.clock,
                                 latency: TimeInterval(configuration.inboxLatencyMilliseconds) / 1000,
                                 store: state)
        dependencies.sender = RoutingSender(inbox: inbox, fallback: dependencies.sender)
        dependencies.mounts += [OperatorMount(network: network), HandsetMount(inbox: inbox)]
    }

    /// The key operator answers are signed with, when a shared secret is configured.
    static func operatorKey(_ configuration: some DevModeSettings) -> [UInt8]? {
        guard let secret = configuration.operatorSecret, !secret.isEmpty else { return nil }
        return OperatorConfiguration.key(fromSecret: secret)
    }
}
