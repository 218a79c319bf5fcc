import Foundation
import TacitProviderKit

extension SMPPClient {
    /// The engine's receipt for a `deliver_sm`, when it is a delivery receipt for a message
    /// this process sent to the number the receipt names; anything else is dropped unread.
    func receipt(_ deliver: SMPPDeliver) -> ProviderReceipt? {
        guard deliver.isReceipt, let text = SMPPReceiptText(deliver), let entry = sent.entry(text.messageId) else {
            return nil
        }
        let from = deliver.sourceAddress.filter(\.isNumber)
        // Receipts come from the number the message went to; one naming another number is not about it.
        guard from.isEmpty || from == entry.destination else { return nil }
        if text.outcome != .progress { sent.forget(text.messageId) }
        return ProviderReceipt(provider: SMPPProvider.name, verificationId: entry.verificationId, step: entry.step,
                               status: text.state, outcome: text.outcome,
                               messageId: SMPPSender.isMessageId(text.messageId) ? text.messageId : nil,
                               errorCode: text.errorCode)
    }
}
