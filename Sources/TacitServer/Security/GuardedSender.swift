import Foundation
import TacitCore
import TacitPhone
import TacitStore

/// Stands in front of the real sender: a message to a denied destination, or one past
/// the number's send limit, is refused here, so the provider is never called. The
/// refusal reason (`destination_denied`, `rate_limited`) fails the step over and lands
/// on the timeline like any other delivery failure.
struct GuardedSender: MessageSender {
    let inner: any MessageSender
    let limiter: RateLimiter
    let configuration: SecurityConfiguration
    let clock: any TacitClock
    let metrics: SecurityMetrics
    let monitor: ConversionMonitor
    /// Counts each code sent to a number by prefix (docs/fraud.md#prefix-blocks).
    let ledger: PrefixLedger
    let log: SecurityLog

    func send(_ message: OutboundMessage) async -> DeliveryResult {
        if let refusal = await refusal(for: message) {
            metrics.refused(refusal, at: "send")
            log.warning("did not send a \(message.channel.rawValue) code: \(refusal)")
            return .refused(reason: refusal)
        }
        let result = await inner.send(message)
        if result.isAccepted {
            await monitor.sent()
            if message.to.hasPrefix("+") {
                ledger.sent(message.to, application: message.applicationId ?? Application.defaultID)
            }
        }
        return result
    }

    private func refusal(for message: OutboundMessage) async -> String? {
        let number = try? PhoneNumberParser().parse(message.to, allowVirtualRange: true)
        if number?.isVirtual == true, !configuration.limitVirtualRange { return nil }
        if configuration.destinations.refusal(e164: message.to, region: number?.region) != nil {
            return "destination_denied"
        }
        // Counted when handed to a sender, in the verification's application and over all of
        // them; a store failure refuses rather than sends unmetered.
        let application = message.applicationId ?? Application.defaultID
        guard let admitted = try? await limiter.consume(configuration.sendCounter, message.to,
                                                        application: application, at: clock.now()),
              admitted else {
            return "rate_limited"
        }
        return nil
    }
}
