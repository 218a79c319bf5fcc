import Foundation
import TacitCore

/// A message that carries a one-time code to a phone.
public struct OutboundMessage: Sendable, Equatable {
    public var channel: Channel
    /// E.164.
    public var to: String
    /// The text shown (SMS, WhatsApp) or spoken (voice).
    public var body: String
    public var verificationId: String
}

/// The outcome of handing a message to a provider.
public enum DeliveryResult: Sendable, Equatable {
    case accepted
    /// Refused: a stable reason such as `no_provider` or `provider_error`.
    case refused(reason: String)
}

/// Delivers codes by SMS, voice or WhatsApp. Real providers implement this; in
/// `--dev` the virtual handset inbox does.
public protocol MessageSender: Sendable {
    func send(_ message: OutboundMessage) async -> DeliveryResult
}

/// The sender used when no provider is configured: it refuses every message, so the
/// step fails over with `no_provider` and nothing leaves the machine.
public struct NoProviderSender: MessageSender {
    public init() {}
    public func send(_ message: OutboundMessage) async -> DeliveryResult { .refused(reason: "no_provider") }
}

/// Routes each message by number: the virtual operator's range to the handset inbox,
/// everything else to the fallback sender.
public struct RoutingSender: MessageSender {
    let inbox: HandsetInbox
    let fallback: any MessageSender

    public init(inbox: HandsetInbox, fallback: any MessageSender) {
        self.inbox = inbox
        self.fallback = fallback
    }

    public func send(_ message: OutboundMessage) async -> DeliveryResult {
        if HandsetInbox.owns(message.to) { return await inbox.send(message) }
        return await fallback.send(message)
    }
}
