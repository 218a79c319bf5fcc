import Foundation

/// The outcome of handing a message to a sender: accepted, or refused with a stable
/// reason, and every provider tried on the way (none for the dev inbox or a test's fake).
public struct DeliveryResult: Sendable, Equatable {
    /// nil when accepted.
    public var refusal: DeliveryAttempt.Refusal?
    /// Why it was refused: a stable word such as `no_provider`, `provider_error` or
    /// `invalid_number`, which becomes the step's reason.
    public var reason: String?
    /// The providers asked, in order; the last one decided.
    public var attempts: [DeliveryAttempt]

    public init(refusal: DeliveryAttempt.Refusal?, reason: String?, attempts: [DeliveryAttempt] = []) {
        self.refusal = refusal
        self.reason = reason
        self.attempts = attempts
    }

    /// Accepted by a sender that names no provider (the dev inbox, a test's fake).
    public static let accepted = DeliveryResult(refusal: nil, reason: nil)

    /// Refused before any provider was asked; the step fails with `reason`.
    public static func refused(reason: String) -> DeliveryResult {
        DeliveryResult(refusal: .permanent, reason: reason)
    }

    /// What one provider answered, as the whole result.
    public init(_ attempt: DeliveryAttempt) {
        self.init(refusal: attempt.refusal, reason: attempt.reason, attempts: [attempt])
    }

    public var isAccepted: Bool { refusal == nil }
    /// The provider that accepted the message and its id for it, when one did.
    public var acceptedBy: DeliveryAttempt? { isAccepted ? attempts.last : nil }
}

/// One provider's answer to one message. Holds no number, code or credential: the
/// detail is the provider's error code and Tacit's own words for it.
public struct DeliveryAttempt: Sendable, Equatable {
    /// Transient: another provider may succeed (5xx, timeout, refused connection, the
    /// provider's own temporary codes). Permanent: no provider will (an invalid or blocked number).
    public enum Refusal: String, Sendable, Equatable {
        case transient, permanent
    }

    public var provider: String
    public var refusal: Refusal?
    /// The provider's id for the accepted message or call (Twilio's `SM…`/`CA…` sid).
    public var messageId: String?
    /// The stable reason of a refusal (`provider_error`, `invalid_number`…).
    public var reason: String?
    /// The provider's error code, when it gave one (`21211`).
    public var errorCode: String?
    /// A short explanation in Tacit's words, safe for the timeline.
    public var detail: String?

    public init(provider: String, refusal: Refusal?, messageId: String? = nil, reason: String? = nil,
                errorCode: String? = nil, detail: String? = nil) {
        self.provider = provider
        self.refusal = refusal
        self.messageId = messageId
        self.reason = reason
        self.errorCode = errorCode
        self.detail = detail
    }

    public static func accepted(by provider: String, messageId: String) -> DeliveryAttempt {
        DeliveryAttempt(provider: provider, refusal: nil, messageId: messageId)
    }
}
