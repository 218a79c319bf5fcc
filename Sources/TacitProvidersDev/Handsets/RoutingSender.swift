import Foundation
import TacitCore

/// Routes each message by number: the virtual operator's range to the handset inbox,
/// every email to the dev mailboxes (the same inbox, keyed by the address), everything
/// else to the fallback sender.
public struct RoutingSender: MessageSender {
    let inbox: HandsetInbox
    let fallback: any MessageSender

    public init(inbox: HandsetInbox, fallback: any MessageSender) {
        self.inbox = inbox
        self.fallback = fallback
    }

    public func send(_ message: OutboundMessage) async -> DeliveryResult {
        if message.channel == .email || HandsetInbox.owns(message.to) { return await inbox.send(message) }
        return await fallback.send(message)
    }
}
