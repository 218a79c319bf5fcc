import Foundation

/// Something that happened to a verification, from whichever driver saw it.
public enum WorkflowInput: Sendable, Equatable {
    /// The verification was created: try the first step. `simSwapped` is the operator's
    /// answer when the verification asked for a SIM swap check (asked before anything is sent).
    case start(simSwapped: Bool?)
    /// A code was made for `step` (the runner makes and hashes it; the machine only keeps the hash).
    case codeIssued(step: Int, hash: [UInt8])
    /// A message carrying the code of `step` was handed to the provider (or it refused).
    case codeDelivery(step: Int, delivered: Bool, reason: String?)
    /// A code was submitted; the runner says whether its keyed hash matched.
    case codeSubmitted(matches: Bool)
    /// The timer for `step` fired.
    case timerFired(step: Int)
    /// The silent-auth provider answered for `step` with anything but a match.
    case silentFailed(step: Int, failure: SilentFailure)
    /// The caller asked to skip to the next step.
    case next
    case cancel
}

/// Why a silent-auth step did not complete (SPEC §3).
public enum SilentFailure: String, Sendable, Equatable, CaseIterable {
    /// The SIM does not match the number: the step is `rejected`.
    case rejected
    case carrierError = "carrier_error"
    case noCoverage = "no_coverage"
    case deviceNotCellular = "device_not_cellular"
    case replayed = "check_url_replayed"
    case expired = "check_url_expired"
    case integrity = "integrity_error"
    case unavailable

    var stepStatus: StepStatus { self == .rejected ? .rejected : .failed }
}

/// What the runner must do after an input.
public enum WorkflowAction: Sendable, Equatable {
    /// Start delivering on a step: send a code, or ask the silent-auth provider for a check.
    case startChannel(step: Int, channel: Channel)
    case scheduleTimer(at: Date)
    case cancelTimer
    case emit(EventDraft)
    case notifyWebhook(WebhookEvent)
}

/// Webhook event types (SPEC §5).
public enum WebhookEvent: String, Sendable, Equatable, Codable, CaseIterable {
    case completed = "verification.completed"
    case failed = "verification.failed"
    case expired = "verification.expired"
    case cancelled = "verification.cancelled"
    case channelStarted = "verification.channel_started"
    case channelFailed = "verification.channel_failed"
}

/// The answer to a code check, for the API to map to a response.
public enum CheckResult: Sendable, Equatable {
    case completed
    case wrongCode(attemptsRemaining: Int)
    case tooManyAttempts
    case notPending(VerificationStatus)
}

/// Why an input was refused without changing anything.
public enum WorkflowRefusal: Error, Sendable, Equatable {
    case notPending(VerificationStatus)
    case noNextChannel
}
