import Foundation
import TacitCore

extension WorkflowRunner {
    /// The send a provider accepted, priced from its answer when it reported a price.
    func acceptedSend(_ result: DeliveryResult, step: Int, channel: Channel) -> AcceptedSend {
        let attempt = result.acceptedBy
        let provider = attempt?.provider ?? AcceptedSend.unnamedProvider
        return AcceptedSend(step: step, channel: channel, provider: provider)
    }
}
