import Foundation
import Synchronization
import TacitCore

/// The circuit breaker in front of one routed provider. After `failures` transient
/// refusals in a row (5xx, timeout, refused connection) it opens and the router skips the
/// provider without asking it; once the cool-down has passed on the injected clock, one
/// send goes through as a trial (half-open) while every other send still skips it; the
/// trial's answer closes the circuit or opens it again. A permanent refusal is about the
/// number, not the provider: it proves the provider answers, so it counts as a success.
///
/// Per process: several instances each keep their own circuits, as they keep their own
/// rate limits, so a provider may be skipped by one and still tried by another.
public final class ProviderCircuit: Sendable {
    /// As `tacit_provider_circuit_state` reports it.
    public enum Position: Int, Sendable, Equatable {
        case closed = 0, open = 1, halfOpen = 2
    }

    /// Why a send was let through: as usual, or as the one trial of a half-open circuit.
    public enum Admission: Sendable, Equatable {
        case regular, trial
    }

    /// The reason on a skipped provider's attempt, which the timeline shows as a skip.
    public static let openReason = "circuit_open"

    private struct State {
        var position = Position.closed
        var failures = 0
        var reopensAt = Date.distantPast
        var opened = 0
    }

    public let provider: String
    let settings: ProviderBreakerSettings
    let clock: any TacitClock
    private let state = Mutex(State())

    public init(provider: String, settings: ProviderBreakerSettings, clock: any TacitClock) {
        self.provider = provider
        self.settings = settings
        self.clock = clock
    }

    public var position: Position { state.withLock { $0.position } }
    /// How many times the circuit has opened since start-up.
    public var openedCount: Int { state.withLock { $0.opened } }

    /// Whether a send may go to the provider now; nil means skip it. The caller that gets
    /// `.trial` is the only one let through until it reports back.
    public func admit() -> Admission? {
        let now = clock.now()
        return state.withLock { state in
            switch state.position {
            case .closed:
                return .regular
            case .halfOpen:
                return nil
            case .open:
                guard now >= state.reopensAt else { return nil }
                state.position = .halfOpen
                return .trial
            }
        }
    }

    /// What the provider answered a send that `admit` let through.
    public func record(_ refusal: DeliveryAttempt.Refusal?, after admission: Admission) {
        let reopensAt = clock.now().addingTimeInterval(settings.cooldown)
        state.withLock { state in
            let failed = refusal == .transient
            switch (admission, state.position) {
            case (.trial, _):
                failed ? Self.open(&state, until: reopensAt) : Self.close(&state)
            case (.regular, .closed):
                guard failed else { state.failures = 0; return }
                state.failures += 1
                if state.failures >= settings.failures { Self.open(&state, until: reopensAt) }
            case (.regular, _):
                // A send let through before the circuit opened says nothing about the trial.
                return
            }
        }
    }

    private static func open(_ state: inout State, until date: Date) {
        state.position = .open
        state.reopensAt = date
        state.failures = 0
        state.opened += 1
    }

    private static func close(_ state: inout State) {
        state.position = .closed
        state.failures = 0
    }
}
