import Foundation
import TacitCore

/// A provider's word, by callback, on a silent check it runs (a Verify request's
/// `silent_auth` event). It counts only for the flow that started it: the verification it
/// names must have recorded this very check for that step, or the server refuses it.
public struct ProviderSilentStatus: Sendable {
    /// The verification and step the callback names; nil when it names none Tacit wrote.
    public var reference: CallbackReference?
    /// The provider's route name, as the check was recorded with it.
    public var provider: String
    /// The provider's id for the check (its request id).
    public var checkId: String
    /// How the step fails on this status; nil for a status that leaves it as it is.
    public var failure: SilentFailure?
    /// What the timeline records of it, whatever it changes.
    public var event: EventDraft

    /// The status of check `checkId` at `provider`, about `reference`.
    public init(reference: CallbackReference?, provider: String, checkId: String, failure: SilentFailure?,
                event: EventDraft) {
        self.reference = reference
        self.provider = provider
        self.checkId = checkId
        self.failure = failure
        self.event = event
    }

    /// The check this status must be about for it to count.
    public var check: SilentCheckReference? {
        reference.map { SilentCheckReference(step: $0.step, provider: provider, reference: checkId) }
    }
}
