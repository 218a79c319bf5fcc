import Foundation
import TacitCore

/// Sends SMS codes as `submit_sm` over the process's one SMPP session. The SMSC's
/// `message_id` is the provider's id for the message, and what its receipt names. A
/// request whose answer never came is not sent again: the SMSC may have taken it, and a
/// second copy would be a second code on the phone. It counts as transient instead.
public struct SMPPSender: MessageSender {
    let client: SMPPClient

    public init(client: SMPPClient) {
        self.client = client
    }

    public func send(_ message: OutboundMessage) async -> DeliveryResult {
        guard message.channel == .sms else {
            return refused(reason: "no_provider", detail: "SMPP carries only SMS")
        }
        let settings = client.settings
        guard let link = await client.link(waitingUpTo: settings.timeout) else {
            return refused(reason: "provider_unreachable", detail: "no SMPP link to the SMSC")
        }
        let submit = SMPPSubmit(sourceAddress: settings.sourceAddress, to: message.to, text: message.body)
        switch await link.request(.submitSm, body: submit.body(), timeout: settings.timeout) {
        case .closed:
            return refused(reason: "provider_unreachable", detail: "the SMPP link dropped before the SMSC answered")
        case .timedOut:
            return refused(reason: "provider_unreachable", detail: "no submit_sm_resp in time")
        case .pdu(let answer) where answer.commandId != SMPPPDU.Command.submitSmResp.rawValue:
            return refused(reason: "provider_error", code: String(answer.status),
                           detail: "the SMSC refused the PDU (generic_nack)")
        case .pdu(let answer) where answer.status != 0:
            return DeliveryResult(SMPPStatus.attempt(answer.status))
        case .pdu(let answer):
            guard let id = try? SMPPSubmit.responseMessageId(answer.body), !id.isEmpty else {
                return refused(reason: "provider_error", detail: "a submit_sm_resp without a message id")
            }
            client.sent.record(id, .init(verificationId: message.verificationId, step: message.step,
                                         destination: submit.destination))
            return DeliveryResult(DeliveryAttempt(provider: SMPPProvider.name, refusal: nil,
                                                  messageId: Self.isMessageId(id) ? id : nil))
        }
    }

    private func refused(reason: String, code: String? = nil, detail: String) -> DeliveryResult {
        DeliveryResult(DeliveryAttempt(provider: SMPPProvider.name, refusal: .transient, reason: reason,
                                       errorCode: code, detail: detail))
    }

    /// Letters, digits, `-` and `_`, at most 64: the ids the timeline takes. Any other id
    /// the SMSC gives still matches its receipt, but the timeline shows none.
    static func isMessageId(_ text: String) -> Bool {
        (1...64).contains(text.count)
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
