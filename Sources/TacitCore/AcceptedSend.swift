import Foundation

/// A code message a provider accepted (or a silent check it issued, on channel `silent_auth`),
/// kept on its verification for the list and for insights' spend and delivery
/// (docs/api.md#insights). Holds no number and no code.
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
    /// The currency of `price`: an ISO 4217 code (`USD`), or a provider's own unit of credit in
    /// three capitals (`API`).
    public var currency: String?
    public var priceSource: PriceSource?
    /// When the provider accepted it; nil for a send kept before acceptance times were.
    public var acceptedAt: Date?
    /// What the provider's first final receipt for it said, if one came.
    public var receipt: Receipt?
    /// The mobile network a receipt said took the message (MCC and MNC, `23410`), if one did: a
    /// later conversion counts for it (docs/fraud.md#mobile-networks).
    public var network: String?

    /// A provider's final word on a message's delivery.
    public enum Receipt: String, Sendable, Equatable {
        case delivered
        case failed
    }

    public init(step: Int, channel: Channel, provider: String, price: String? = nil, currency: String? = nil,
                priceSource: PriceSource? = nil, acceptedAt: Date? = nil, receipt: Receipt? = nil,
                network: String? = nil) {
        self.network = network
        self.acceptedAt = acceptedAt
        self.receipt = receipt
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
