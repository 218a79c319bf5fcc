import Foundation

/// The port the engine drives for silent authentication. The virtual operator is the
/// first implementation; real ones (silent-auth services, mobile operators' network APIs) fit behind it.
public protocol SilentAuthProvider: Sendable {
    /// The provider's name on the timeline (`virtual_operator`, or a provider's route name).
    var providerName: String { get }

    /// Checks coverage and, when covered, issues a check the device must open over
    /// its cellular path. Operator hops it saw go on the timeline as `events`.
    func begin(_ request: SilentCheckRequest) async -> SilentBeginResult
}

/// One silent-auth step to start.
public struct SilentCheckRequest: Sendable, Equatable {
    public var verificationId: String
    public var step: Int
    /// E.164.
    public var phoneNumber: String
    /// The check is worthless after this (the silent step's deadline).
    public var expiresAt: Date
    /// Where the provider must send the device back with its verdict: Tacit's own
    /// callback, fixed here, when the check starts, and never taken from the link the
    /// device carries. A provider keeps it with the check it issues and redirects only
    /// there (as an OAuth server redirects only to a registered `redirect_uri`); nil when
    /// the device ends at the provider instead and no verdict travels through it.
    public var callbackURL: String?
    /// The SIM-swap window the verification asked for (`sim_swap.max_age_hours`), for a
    /// provider whose check also says whether the SIM changed; nil when none was asked.
    public var simSwapMaxAgeHours: Int?

    public init(verificationId: String, step: Int, phoneNumber: String, expiresAt: Date, callbackURL: String? = nil,
                simSwapMaxAgeHours: Int? = nil) {
        self.verificationId = verificationId
        self.step = step
        self.phoneNumber = phoneNumber
        self.expiresAt = expiresAt
        self.callbackURL = callbackURL
        self.simSwapMaxAgeHours = simSwapMaxAgeHours
    }
}

public enum SilentBeginResult: Sendable, Equatable {
    /// The device must GET `checkURL` over cellular.
    case issued(checkURL: String, events: [EventDraft])
    /// The device must open the provider's own check URL; the step completes only when
    /// Tacit asks the provider about the challenge's reference.
    case issuedAtProvider(SilentChallenge, events: [EventDraft])
    /// The step can't run: no coverage, carrier error, or no provider at all.
    case failed(SilentFailure, events: [EventDraft])
}

extension SilentAuthProvider {
    public var providerName: String { "silent_auth" }
}

/// Used when no silent-auth provider is configured: every silent step fails over at once.
public struct UnavailableSilentAuth: SilentAuthProvider {
    public init() {}
    public func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
        .failed(.unavailable, events: [])
    }
}

/// Asks the number's operator whether its SIM changed recently (a network's SIM Swap API).
public protocol SimSwapChecker: Sendable {
    /// nil when the operator can't tell (not its number, or the API failed).
    func swapped(phoneNumber: String, maxAgeHours: Int) async -> Bool?
}

public struct NoSimSwapChecker: SimSwapChecker {
    public init() {}
    public func swapped(phoneNumber: String, maxAgeHours: Int) async -> Bool? { nil }
}
