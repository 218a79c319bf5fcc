import Foundation

/// Something that happened to a verification, from whichever driver saw it.
public enum WorkflowInput: Sendable, Equatable {
    /// The verification was created: try the first step. `simSwapped` is the operator's
    /// answer when the verification asked for a SIM swap check (asked before anything is sent).
    case start(simSwapped: Bool?)
    /// A code was made for `step` (the runner makes and hashes it; the machine only keeps the hash).
    case codeIssued(step: Int, hash: [UInt8])
    /// A message carrying the code of `step` was handed to the provider, or it refused
    /// with `reason` (the sender port's wire string, `provider_error` when it gave none).
    case codeDelivery(step: Int, delivered: Bool, reason: String?)
    /// A code was submitted; the runner says whether its keyed hash matched. The
    /// decision carries the check's result.
    case codeSubmitted(matches: Bool)
    /// The timer for `step` fired.
    case timerFired(step: Int)
    /// The silent-auth provider answered for `step` with anything but a match.
    case silentFailed(step: Int, failure: SilentFailure)
    /// The caller asked to skip to the next step.
    case next
    case cancel
    /// An event was recorded outside the machine after the verification may have
    /// finished (a webhook's delivery result): a finished verification records its
    /// summary again, so the summary stays its last event.
    case eventRecorded
}
