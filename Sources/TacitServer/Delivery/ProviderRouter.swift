import Foundation
import TacitCore
import TacitPhone

/// Routes each message to providers in failover order (docs/providers.md#routing-and-failover): the country's route
/// for the channel, else the channel's route, else every configured provider that
/// carries the channel in the order given. Within one step, a transient refusal moves
/// on to the next provider; an acceptance or a permanent refusal ends the search. The
/// result carries every provider asked, for the timeline. Each provider sits behind its
/// own `ProviderCircuit`: one whose circuit is open is skipped at once, as a hop of its own.
public struct ProviderRouter: MessageSender, MetricsSection {
    /// The providers in the table's order (as the composition root lists them), which is the default route.
    let providers: [RoutedProvider]
    let routes: ProviderRoutes
    /// The ISO region of an E.164 number, for country routes.
    let region: @Sendable (String) -> String?
    /// One per provider, by name; shared by every copy of the router.
    public let circuits: [String: ProviderCircuit]

    /// Checks that every route names a configured provider that carries its channel.
    public init(providers: [RoutedProvider], routes: ProviderRoutes,
                region: @escaping @Sendable (String) -> String? = ProviderRouter.region,
                breaker: ProviderBreakerSettings = ProviderBreakerSettings(),
                clock: any TacitClock = SystemClock()) throws(ProviderSetupError) {
        self.providers = providers
        self.routes = routes
        self.region = region
        self.circuits = Dictionary(
            providers.map { ($0.name, ProviderCircuit(provider: $0.name, settings: breaker, clock: clock)) },
            uniquingKeysWith: { first, _ in first })
        // Silent routes are the silent router's to check: no messaging provider carries that channel.
        for route in routes.all where route.channel != .silentAuth {
            for name in route.providers {
                guard let provider = providers.first(where: { $0.name == name }) else {
                    throw ProviderSetupError(setting: route.setting, problem: "names \(name), which is not configured")
                }
                guard provider.channels.contains(route.channel) else {
                    throw ProviderSetupError(
                        setting: route.setting,
                        problem: "names \(name), which does not carry \(route.channel.rawValue) as configured")
                }
            }
        }
    }

    /// The providers to try for `message`, in order.
    public func chain(for message: OutboundMessage) -> [RoutedProvider] {
        guard let route = routes.route(for: message.channel, region: region(message.to)) else {
            return providers.filter { $0.channels.contains(message.channel) }
        }
        return route.providers.compactMap { name in providers.first { $0.name == name } }
    }

    public func send(_ message: OutboundMessage) async -> DeliveryResult {
        let chain = chain(for: message)
        guard !chain.isEmpty else { return .refused(reason: "no_provider") }
        var attempts: [DeliveryAttempt] = []
        for provider in chain {
            let circuit = circuits[provider.name]
            let admission = if let circuit { circuit.admit() } else { ProviderCircuit.Admission.regular }
            guard let admission else {
                attempts.append(DeliveryAttempt(provider: provider.name, refusal: .transient,
                                                reason: ProviderCircuit.openReason))
                continue
            }
            let result = await provider.sender.send(message)
            circuit?.record(result.refusal, after: admission)
            attempts += result.attempts.isEmpty
                ? [DeliveryAttempt(provider: provider.name, refusal: result.refusal, reason: result.reason)]
                : result.attempts
            if result.refusal != .transient {
                return DeliveryResult(refusal: result.refusal, reason: result.reason, attempts: attempts)
            }
        }
        return DeliveryResult(refusal: .transient, reason: attempts.last?.reason ?? "provider_error",
                              attempts: attempts)
    }

    /// `tacit_provider_circuit_state` and `tacit_provider_circuit_opened_total`, per provider.
    public func renderMetrics() -> String {
        let sorted = circuits.values.sorted { $0.provider < $1.provider }
        var lines = ["# HELP tacit_provider_circuit_state Each provider's circuit: 0 closed, 1 open,"
                     + " 2 half-open (this process only).",
                     "# TYPE tacit_provider_circuit_state gauge"]
        lines += sorted.map { "tacit_provider_circuit_state{provider=\"\($0.provider)\"} \($0.position.rawValue)" }
        lines += ["# HELP tacit_provider_circuit_opened_total Times each provider's circuit opened (this process"
                  + " only).",
                  "# TYPE tacit_provider_circuit_opened_total counter"]
        lines += sorted.map { "tacit_provider_circuit_opened_total{provider=\"\($0.provider)\"} \($0.openedCount)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// libphonenumber's region for a number; nil for the virtual range and anything unparsable.
    public static let region: @Sendable (String) -> String? = { number in
        (try? PhoneNumberParser().parse(number, allowVirtualRange: true))?.region
    }
}
