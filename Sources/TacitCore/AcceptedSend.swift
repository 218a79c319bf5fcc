import Foundation

/// A code message a provider accepted, kept on its verification for the list and for
/// insights' spend (docs/api.md#insights). Holds no number and no code.
public struct AcceptedSend: Sendable, Equatable {
    /// Where a price came from.
    public enum PriceSource: String, Sendable, Equatable {
        /// The provider reported it (its send answer or its receipt).
        case receipt
        /// The price table (`TACIT_PRICES`).
        case table
    }

    /// The workflow step the message carried the code of.
    public var step: Int
    public var channel: Channel
    /// The provider's route name; `dev` for a sender that names none (the dev inbox).
    public var provider: String
    /// What the message cost, as a positive decimal string (`0.0079`), when known.
    public var price: String?
    /// ISO 4217 currency of `price` (`USD`).
    public var currency: String?
    public var priceSource: PriceSource?

    public init(step: Int, channel: Channel, provider: String, price: String? = nil, currency: String? = nil,
                priceSource: PriceSource? = nil) {
        self.step = step
        self.channel = channel
        self.provider = provider
        self.price = price
        self.currency = currency
        self.priceSource = priceSource
    }

    /// The provider name a sender that names none is counted under.
    public static let unnamedProvider = "dev"
}
