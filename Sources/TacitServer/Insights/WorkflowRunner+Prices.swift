import Foundation
import TacitCore

extension WorkflowRunner {
    /// The send a provider accepted, priced from its answer when it reported a price; one
    /// without is priced from the table inside the change's transaction (`keep`).
    func acceptedSend(_ result: DeliveryResult, step: Int, channel: Channel) -> AcceptedSend {
        let attempt = result.acceptedBy
        var send = AcceptedSend(step: step, channel: channel,
                                provider: attempt?.provider ?? AcceptedSend.unnamedProvider)
        if let price = attempt?.price, let currency = attempt?.currency {
            (send.price, send.currency, send.priceSource) = (price, currency, .receipt)
        }
        return send
    }
}
