import Foundation
import TacitCore

/// The sender used when no provider is configured: it refuses every message, so the
/// step fails over with `no_provider` and nothing leaves the machine.
public struct NoProviderSender: MessageSender {
    public init() {}
    public func send(_ message: OutboundMessage) async -> DeliveryResult { .refused(reason: "no_provider") }
}
