import Foundation

/// A message that carries a one-time code to a phone.
public struct OutboundMessage: Sendable, Equatable {
    public var channel: Channel
    /// E.164.
    public var to: String
    /// The text shown (SMS, WhatsApp) or spoken (voice).
    public var body: String
    public var verificationId: String

    public init(channel: Channel, to: String, body: String, verificationId: String) {
        self.channel = channel
        self.to = to
        self.body = body
        self.verificationId = verificationId
    }
}

/// The outcome of handing a message to a provider.
public enum DeliveryResult: Sendable, Equatable {
    case accepted
    /// Refused: a stable reason such as `no_provider` or `provider_error`.
    case refused(reason: String)
}

/// The port every messaging provider implements: delivers codes by SMS, voice or
/// WhatsApp. In `--dev` the virtual handset inbox is one more implementation.
public protocol MessageSender: Sendable {
    func send(_ message: OutboundMessage) async -> DeliveryResult
}
