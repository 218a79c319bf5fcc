import Foundation

/// One webhook delivery owed to one endpoint, written in the same transaction as the
/// change it reports, so a change that committed always has its webhook.
public struct OutboxMessage: Sendable, Equatable {
    /// The `webhook-id`: stable across retries, so receivers can deduplicate.
    public var id: String
    /// Which configured endpoint the message goes to (a stable id derived from its URL).
    public var endpoint: String
    public var verificationId: String
    /// The event type, such as `verification.completed`.
    public var type: String
    /// The JSON body exactly as it is signed and sent. It holds no number, code or token.
    public var payload: [UInt8]
    public var createdAt: Date
    /// Attempts made so far.
    public var attempts: Int
    /// When the next attempt is due.
    public var nextAttemptAt: Date
    public var state: OutboxState

    public init(id: String, endpoint: String, verificationId: String, type: String, payload: [UInt8],
                createdAt: Date, attempts: Int = 0, nextAttemptAt: Date? = nil, state: OutboxState = .pending) {
        self.id = id
        self.endpoint = endpoint
        self.verificationId = verificationId
        self.type = type
        self.payload = payload
        self.createdAt = createdAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt ?? createdAt
        self.state = state
    }
}

/// Where an outbox message stands.
public enum OutboxState: String, Sendable, Equatable, CaseIterable {
    /// Waiting for its next attempt (or being attempted under a lease).
    case pending
    case delivered
    /// Every attempt failed, or the target was refused: no more attempts.
    case dead
    /// Its endpoint answered 410 Gone (or was disabled before it could be sent).
    case disabled
}

/// What one delivery attempt decided for a message.
public enum OutboxOutcome: Sendable, Equatable {
    case delivered
    case retry(at: Date)
    case dead
}
