import Foundation

/// Two moves a drop-in face needs that `/v1` has no input for: `.resend` and `.approve`.
/// A face may re-send a pending verification when the app starts the same number again,
/// on the channel it names then, and let the app approve a verification outright.
/// Both go through the same step functions as every other input, so the timeline, the
/// webhooks and the guards see them as they see any step.
extension WorkflowMachine {
    /// Ends the active step as skipped and starts a new step on `channel` at the end of
    /// the workflow, with a fresh code and deadline: each send is one step, so a
    /// verification's steps are its send attempts. The old step's code dies with it.
    /// Wrong codes entered so far still count: a new send never resets them.
    mutating func resend(on channel: Channel) throws(WorkflowRefusal) {
        guard let active = verification.state.activeStep else { throw .notPending(verification.status) }
        verification.workflow.append(WorkflowStep(channel: channel))
        end(step: active.index, status: .failed, reason: .skipped, label: .skipped)
        activate(verification.workflow.count - 1)
    }

    /// Completes the active step without a code, as when the app itself vouches for the
    /// person (a face's approve call).
    mutating func approve() throws(WorkflowRefusal) {
        guard let active = verification.state.activeStep else { throw .notPending(verification.status) }
        complete(step: active.index)
    }
}
