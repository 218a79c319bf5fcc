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
    /// A provider's final receipt (delivered or not) for a message it sent for `step`.
    case receipt(step: Int, provider: String, AcceptedSend.Receipt)
    /// The mobile network a provider's receipt named for a message it sent for `step`.
    case network(step: Int, provider: String, String)
}

extension Verification {
    /// Keeps `note` at `at`: an accepted send is added, accepted then, priced from `prices` when
    /// its provider reported no price; a reported price replaces what the send had (a table's
    /// price, or none). A receipt is kept on the oldest send of its step and provider that has
    /// none yet (a resend's receipts come in the order its messages went), so each message's
    /// first final receipt counts once; a network likewise, on the oldest such send that names none
    /// yet. A price, receipt or network for a send Tacit has no record of is dropped.
    mutating func keep(_ note: SendNote, prices: PriceTable, at: Date) {
        switch note {
        case .accepted(var send):
            send.acceptedAt = at
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
        case .receipt(let step, let provider, let receipt):
            guard let index = oldestMessage(step: step, provider: provider, lacking: { $0.receipt == nil }) else {
                return
            }
            acceptedSends[index].receipt = receipt
        case .network(let step, let provider, let network):
            // Kept once per message, as receipts are: a message's later receipts name the same network.
            guard let index = oldestMessage(step: step, provider: provider, lacking: { $0.network == nil }) else {
                return
            }
            acceptedSends[index].network = network
        }
    }

    /// The oldest message `provider` sent for `step` that `lacking` says a receipt hasn't told of
    /// yet: where the next receipt's word about it is kept. A silent check is no message.
    func oldestMessage(step: Int, provider: String, lacking: (AcceptedSend) -> Bool) -> Int? {
        acceptedSends.firstIndex {
            $0.step == step && $0.provider == provider && $0.channel != .silentAuth && lacking($0)
        }
    }
}
