import Foundation

/// What the runner must do after an input, in order.
public enum WorkflowEffect: Sendable, Equatable {
    /// Make a code for `step`, keep its keyed hash (`.codeIssued`) in the same
    /// transaction; the machine then asks for it to be sent.
    case issueCode(step: Int, channel: Channel)
    /// Ask the silent-auth provider for a check for `step`, worthless after `expiresAt`.
    case beginSilentCheck(step: Int, expiresAt: Date)
    /// Send the code issued for `step` once the transaction that keeps its hash committed.
    case sendMessage(step: Int, channel: Channel)
    case scheduleTimer(at: Date)
    case cancelTimer
    /// Tell webhook endpoints; `channel` is the step the event is about, if any.
    case notifyWebhook(WebhookEvent, channel: Channel?)
    /// Record a timeline event (worded outside the machine).
    case emit(WorkflowEvent)

    /// The event, when this is an `.emit`.
    public var event: WorkflowEvent? {
        if case .emit(let event) = self { return event }
        return nil
    }
}

/// Webhook event types (docs/events.md#event-types).
public enum WebhookEvent: String, Sendable, Equatable, Codable, CaseIterable {
    case completed = "verification.completed"
    case failed = "verification.failed"
    case expired = "verification.expired"
    case cancelled = "verification.cancelled"
    case channelStarted = "verification.channel_started"
    case channelFailed = "verification.channel_failed"
    /// A fraud rule refused a start: no verification exists, so the machine never decides this
    /// one; the start guard and the runner enqueue it (docs/events.md#verificationblocked).
    case blocked = "verification.blocked"
}
