import Foundation
import Synchronization
import TacitCore

/// A named fake provider for the router's tests: answers each message with its script's
/// attempt (accepted with an id, or refused) and keeps what it was handed.
final class ScriptedSender: MessageSender {
    let name: String
    let answer: Mutex<DeliveryAttempt.Refusal?>
    let reason: String
    let sent = Mutex<[OutboundMessage]>([])

    init(_ name: String, refusal: DeliveryAttempt.Refusal? = nil, reason: String = "provider_error") {
        self.name = name
        answer = Mutex(refusal)
        self.reason = reason
    }

    var count: Int { sent.withLock { $0.count } }

    func refuse(_ refusal: DeliveryAttempt.Refusal?) { answer.withLock { $0 = refusal } }

    func send(_ message: OutboundMessage) async -> DeliveryResult {
        let count = sent.withLock { $0.append(message); return $0.count }
        guard let refusal = answer.withLock({ $0 }) else { return DeliveryResult(.accepted(by: name, messageId: "\(name)-\(count)")) }
        return DeliveryResult(DeliveryAttempt(provider: name, refusal: refusal, reason: reason, errorCode: "500", detail: "HTTP 500"))
    }
}
