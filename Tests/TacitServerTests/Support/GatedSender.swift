import Foundation
import Synchronization
import TacitCore

/// A named fake provider that holds each send until the test gives it an answer, so a
/// test can keep one send in flight while others run. Sends take answers in order.
final class GatedSender: MessageSender {
    let name: String
    let calls = Mutex(0)
    /// One element per send that reached the provider.
    let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation
    private let answers: AsyncStream<DeliveryAttempt.Refusal?>
    private let answer: AsyncStream<DeliveryAttempt.Refusal?>.Continuation

    init(_ name: String) {
        self.name = name
        (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        (answers, answer) = AsyncStream.makeStream(of: DeliveryAttempt.Refusal?.self)
    }

    var count: Int { calls.withLock { $0 } }

    /// The answer the next send (or the one waiting) gets: nil accepts.
    func reply(_ refusal: DeliveryAttempt.Refusal?) { answer.yield(refusal) }

    func send(_ message: OutboundMessage) async -> DeliveryResult {
        let number = calls.withLock { $0 += 1; return $0 }
        arrived.yield()
        var iterator = answers.makeAsyncIterator()
        guard let refusal = await iterator.next() ?? .transient else {
            return DeliveryResult(.accepted(by: name, messageId: "\(name)-\(number)"))
        }
        return DeliveryResult(DeliveryAttempt(provider: name, refusal: refusal, reason: "provider_error", errorCode: "500"))
    }
}
