import Foundation

/// A timeline event the machine decided on, with the facts it reports and no
/// wording: the server renders each into a note (`Notes`). The label and channel are
/// rules (clients match on them), so they are decided here.
public enum WorkflowEvent: Sendable, Equatable {
    case started(workflow: [Channel], channelTimeout: Int, codeLength: Int, phoneNumber: String)
    case simSwapChecked(swapped: Bool, policy: SimSwapPolicy)
    /// `index` counts from 0.
    case stepStarted(Channel, index: Int, timeout: Int)
    case codeSent(Channel, length: Int, phoneNumber: String)
    case codeAccepted(Channel)
    case codeRejected(Channel, attemptsRemaining: Int)
    case timerFired(Channel, seconds: Int)
    /// `isLast` when no step follows this one in the workflow.
    case stepEnded(Channel, label: StepEndLabel, reason: EndReason, isLast: Bool)
    case stepCompleted(Channel)
    case finished(VerificationOutcome, reason: EndReason?)
    case summary(VerificationStatus, workflow: [WorkflowStep])

    public var label: String {
        switch self {
        case .started: "verification:started"
        case .simSwapChecked: "risk:sim_swap_checked"
        case .stepStarted(let channel, _, _): "\(channel.rawValue):started"
        case .codeSent(let channel, _, _): "\(channel.rawValue):code_sent"
        case .codeAccepted(let channel), .codeRejected(let channel, _): "\(channel.rawValue):code_checked"
        case .timerFired: "timer:fired"
        case .stepEnded(let channel, let label, _, _): "\(channel.rawValue):\(label.rawValue)"
        case .stepCompleted(let channel): "\(channel.rawValue):completed"
        case .finished(let outcome, _): "verification:\(outcome.rawValue)"
        case .summary: "verification:summary"
        }
    }

    /// The step's channel, for events about one step.
    public var channel: Channel? {
        switch self {
        case .started, .simSwapChecked, .finished, .summary: nil
        case .stepStarted(let channel, _, _), .codeSent(let channel, _, _), .codeAccepted(let channel),
             .codeRejected(let channel, _), .timerFired(let channel, _), .stepEnded(let channel, _, _, _),
             .stepCompleted(let channel):
            channel
        }
    }
}
