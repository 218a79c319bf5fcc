import Foundation
import TacitCore

/// Routes each silent check across providers in order (docs/providers.md#routing-silent-authentication), the way
/// ``ProviderRouter`` routes messages and with the same ``ProviderRoutes`` and
/// ``ProviderCircuit``: the country's `TACIT_ROUTE_SILENT_AUTH_<CC>`, else
/// `TACIT_ROUTE_SILENT_AUTH`, else every configured provider in the table's order.
/// Numbers of the virtual range go to the virtual operator alone. Within the one silent
/// step, no coverage, an outage or a carrier error moves on to the next provider; the
/// step fails over to the next channel only when none issued a check. Every hop is an
/// event naming the provider.
public struct SilentProviderRouter: SilentAuthProvider {
    /// In the table's order, as the composition root lists them: the default route.
    public let providers: [RoutedSilentProvider]
    let routes: ProviderRoutes
    /// The virtual operator, for `+990` numbers (dev only).
    private(set) var virtual: (any SilentAuthProvider)?
    let region: @Sendable (String) -> String?
    /// One per provider, by name.
    public let circuits: [String: ProviderCircuit]

    /// Checks that every silent route names a configured silent provider.
    public init(providers: [RoutedSilentProvider], routes: ProviderRoutes, virtual: (any SilentAuthProvider)? = nil,
                region: @escaping @Sendable (String) -> String? = ProviderRouter.region,
                breaker: ProviderBreakerSettings = ProviderBreakerSettings(),
                clock: any TacitClock = SystemClock()) throws(ProviderSetupError) {
        self.providers = providers
        self.routes = routes
        self.virtual = virtual
        self.region = region
        self.circuits = Dictionary(
            providers.map { ($0.name, ProviderCircuit(provider: $0.name, settings: breaker, clock: clock)) },
            uniquingKeysWith: { first, _ in first })
        for route in routes.all where route.channel == .silentAuth {
            for name in route.providers where !providers.contains(where: { $0.name == name }) {
                throw ProviderSetupError(setting: route.setting,
                                         problem: "names \(name), which is not configured for silent_auth")
            }
        }
    }

    /// This router with `virtual` answering for the virtual range (and for every number
    /// when no provider is configured), keeping the same circuits.
    public func routing(virtualRange virtual: (any SilentAuthProvider)?) -> SilentProviderRouter {
        var copy = self
        copy.virtual = virtual
        return copy
    }

    /// The name Tacit's own check links carry: only the virtual operator's checks pass
    /// through them, since a routed provider's device ends at the provider.
    public var providerName: String { virtual?.providerName ?? providers.first?.name ?? "silent_auth" }

    /// The providers to try for `phoneNumber`, in order.
    public func chain(for phoneNumber: String) -> [RoutedSilentProvider] {
        guard let route = routes.route(for: .silentAuth, region: region(phoneNumber)) else { return providers }
        return route.providers.compactMap { name in providers.first { $0.name == name } }
    }

    public func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
        await beginNamed(request).result
    }

    /// The answer, and the name of the provider that issued the check (nil when none did).
    func beginNamed(_ request: SilentCheckRequest) async -> (issuer: String?, result: SilentBeginResult) {
        let chain = VirtualRange.contains(request.phoneNumber) ? [] : chain(for: request.phoneNumber)
        if chain.isEmpty {
            guard let virtual else { return (nil, .failed(.unavailable, events: [])) }
            return (virtual.providerName, await virtual.begin(request))
        }
        var events: [EventDraft] = []
        var last = SilentFailure.unavailable
        for (index, routed) in chain.enumerated() {
            let next = chain.indices.contains(index + 1) ? chain[index + 1].name : nil
            let circuit = circuits[routed.name]
            let admission = if let circuit { circuit.admit() } else { ProviderCircuit.Admission.regular }
            guard let admission else {
                events.append(SilentHopNotes.skipped(routed.name, next: next))
                continue
            }
            let answer = await routed.provider.begin(request)
            switch answer {
            case .issued(_, let hops), .issuedAtProvider(_, let hops):
                circuit?.record(nil, after: admission)
                let issued = [SilentHopNotes.coverage(routed.name, covered: true), SilentHopNotes.issued(routed.name)]
                return (routed.name, Self.adding(events + hops + issued, to: answer))
            case .failed(let failure, let hops):
                circuit?.record(failure.isOutage ? .transient : nil, after: admission)
                let coverage = failure == .noCoverage ? [SilentHopNotes.coverage(routed.name, covered: false)] : []
                events += hops + coverage + [SilentHopNotes.fellThrough(routed.name, failure: failure, next: next)]
                last = failure
                guard failure.fallsThrough else { return (nil, .failed(failure, events: events)) }
            }
        }
        return (nil, .failed(last, events: events))
    }

    private static func adding(_ events: [EventDraft], to answer: SilentBeginResult) -> SilentBeginResult {
        switch answer {
        case .issued(let url, _): .issued(checkURL: url, events: events)
        case .issuedAtProvider(let challenge, _): .issuedAtProvider(challenge, events: events)
        case .failed(let failure, _): .failed(failure, events: events)
        }
    }
}

extension SilentFailure {
    /// A begin that failed this way says nothing about the number: the next provider may cover it.
    var fallsThrough: Bool { [.noCoverage, .unavailable, .carrierError].contains(self) }
    /// A failure that counts against the provider's circuit; no coverage proves it answers.
    var isOutage: Bool { self == .unavailable || self == .carrierError }
}
