import Foundation
import TacitCore

/// What a change learnt about a code message besides the workflow's own state: a provider
/// accepted it, or a provider's receipt priced it. The runner writes it onto the
/// verification inside the change's transaction, where insights count it
/// (docs/api.md#insights).
public enum SendNote: Sendable, Equatable {
    case accepted(AcceptedSend)
    /// The price a provider reported for the message it sent for `step`.
    case priced(step: Int, provider: String, price: String, currency: String)
}

extension Verification {
    /// Keeps `note`: an accepted send is added, priced from `prices` when its provider
    /// reported no price; a reported price replaces what the send had (a table's price, or
    /// none). A price for a send Tacit has no record of is dropped.
    mutating func keep(_ note: SendNote, prices: PriceTable) {
        switch note {
        case .accepted(var send):
            if send.price == nil, let entry = prices.price(channel: send.channel, provider: send.provider,
                                                            country: region) {
                (send.price, send.currency, send.priceSource) = (entry.price, entry.currency, .table)
            }
            acceptedSends.append(send)
        case .priced(let step, let provider, let price, let currency):
            guard let index = acceptedSends.lastIndex(where: { $0.step == step && $0.provider == provider }) else {
                return
            }
            acceptedSends[index].price = price
            acceptedSends[index].currency = currency
            acceptedSends[index].priceSource = .receipt
        }
    }
}
