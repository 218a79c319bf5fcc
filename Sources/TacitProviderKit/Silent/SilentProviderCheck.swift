import Foundation

/// The second shape of silent completion, for adapters whose device ends at the
/// provider: its check URL ends with the provider's id and a code, or with nothing at
/// all. Tacit completes such a step only by asking the provider, server to server (a
/// code check, a `PATCH` of the check), about the check Tacit began.
///
/// Nothing the device brings is taken as a verdict. The provider's id it shows is
/// compared, by the device, with the one the start response named, and then only
/// looked up: the reference an adapter is asked about comes from Tacit's own record of
/// the check it began, which is why only the server can make a ``SilentSubmission``.
/// The code is an opaque input to the provider's call. The adapter answers with the
/// provider's result alone: it names no flow, so it can't move a verdict to another.
public protocol SilentProviderCheck: Sendable {
    /// The provider's verdict on `submission`'s check, from its API; nil when the
    /// provider did not answer or does not know the check (the step then fails over).
    func verdict(for submission: SilentSubmission) async -> SilentProviderVerdict?
}

/// What a provider answered about one check: its result, and the SIM-change signal
/// when it gives one (tru.ID's `no_sim_change`).
public struct SilentProviderVerdict: Sendable, Equatable {
    /// What the provider found.
    public var result: SilentVerdict.Result
    /// True when the SIM changed within ``simChangeWindowMinutes``; nil when it did not say.
    public var simChanged: Bool?
    /// The window, in minutes, the provider judged `simChanged` over: the one the
    /// verification asked for, as the provider takes it; nil when it named none.
    public var simChangeWindowMinutes: Int?

    /// The provider's `result`, and what it said of the SIM over which window.
    public init(result: SilentVerdict.Result, simChanged: Bool? = nil, simChangeWindowMinutes: Int? = nil) {
        self.result = result
        self.simChanged = simChanged
        self.simChangeWindowMinutes = simChangeWindowMinutes
    }
}

/// What a ``SilentProviderCheck`` is asked about. Made only by the server, from the
/// check it began, never from a device's request.
public struct SilentSubmission: Sendable, Equatable {
    /// The provider's id for the check, as the provider returned it when the check began.
    public let reference: String
    /// What the device got at the end of the provider's chain, passed on untouched; nil
    /// when the provider hands the device nothing.
    public let deviceCode: String?
    /// E.164: the number the check was begun for.
    public let phoneNumber: String
    /// The SIM-swap window the verification asked for (`sim_swap.max_age_hours`); nil when none.
    public let simSwapMaxAgeHours: Int?

    /// Package-wide so that the server, and no provider, makes one from the check it began.
    package init(reference: String, deviceCode: String?, phoneNumber: String, simSwapMaxAgeHours: Int? = nil) {
        self.reference = reference
        self.deviceCode = deviceCode
        self.phoneNumber = phoneNumber
        self.simSwapMaxAgeHours = simSwapMaxAgeHours
    }
}
