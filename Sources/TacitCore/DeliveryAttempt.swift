import Foundation

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
    /// The provider's id for the accepted message or call (an `SM…` or `CA…` sid, say).
    public var messageId: String?
    /// The stable reason of a refusal (`provider_error`, `invalid_number`…).
    public var reason: String?
    /// The provider's error code, when it gave one (`21211`).
    public var errorCode: String?
    /// A short explanation in Tacit's words, safe for the timeline.
    public var detail: String?
    /// What the provider said the message cost, when its answer says (see `priced`).
    public private(set) var price: String?
    public private(set) var currency: String?

    public init(provider: String, refusal: Refusal?, messageId: String? = nil, reason: String? = nil,
                errorCode: String? = nil, detail: String? = nil) {
        self.provider = provider
        self.refusal = refusal
        self.messageId = messageId
        self.reason = reason
        self.errorCode = errorCode
        self.detail = detail
    }

    /// This attempt with the price the provider reported, kept only when both are well formed.
    public func priced(_ price: String?, currency: String?) -> DeliveryAttempt {
        guard let price, let currency, Price.isWellFormed(price), Price.isCurrency(currency) else { return self }
        var copy = self
        copy.price = Price.magnitude(price)
        copy.currency = currency
        return copy
    }

    public static func accepted(by provider: String, messageId: String) -> DeliveryAttempt {
        DeliveryAttempt(provider: provider, refusal: nil, messageId: messageId)
    }
}
