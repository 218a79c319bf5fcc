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
