import Foundation

/// Something that happened to a verification, from whichever driver saw it. Every one
/// reaches the machine through `WorkflowMachine.handle(_:)`.
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
    /// A provider issued a check for a silent step whose device ends at the provider:
    /// the machine keeps the reference while its step is the active silent one, and
    /// takes nothing for any other step.
    case silentCheckIssued(SilentCheckReference)
    /// The provider matched the SIM to the number on the active silent `step`: the step
    /// completes as a silent code would (`hash` is a keyed hash only the server can make,
    /// consumed at once). `simChanged` is the provider's SIM-change signal: it sets
    /// `risk.sim_swapped`, and with a `block` policy a changed SIM fails the verification instead.
    case providerMatched(step: Int, hash: [UInt8], simChanged: Bool?)
    /// The active `step` can't reach the person (an SMS step to a fixed line, a silent step for a
    /// test number): it ends as skipped with `reason` and the next step starts, as `.next` would,
    /// or the verification fails when it was the last.
    case unreachable(step: Int, reason: EndReason)
    /// The caller asked to skip to the next step.
    case next
    case cancel
    /// The caller asked for one more send on `channel` (a face that keeps one verification
    /// per number re-sends when the app starts the same number again): the active step ends as
    /// skipped and a new step on `channel` starts at the end of the workflow, with a fresh
    /// code and deadline. Wrong codes entered so far still count.
    case resend(on: Channel)
    /// The app vouches for the person itself (a face's approve call): the active step
    /// completes without a code.
    case approve
    /// An event was recorded outside the machine after the verification may have
    /// finished (a webhook's delivery result, a provider's late hop): a finished
    /// verification records its summary again, so the summary stays its last event.
    case eventRecorded
}
