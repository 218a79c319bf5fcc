import Foundation
import TacitCore

/// A messaging provider as the router sees it: the name routes use, the channels it
/// carries as configured, and its sender. Each provider target makes one.
public struct RoutedProvider: Sendable {
    /// Lower-case, as `TACIT_ROUTE_SMS` names it.
    public var name: String
    /// The channels the provider carries as configured.
    public var channels: Set<Channel>
    /// Sends the provider's messages.
    public var sender: any MessageSender

    /// A provider named `name` that carries `channels` through `sender`.
    public init(name: String, channels: Set<Channel>, sender: any MessageSender) {
        self.name = name
        self.channels = channels
        self.sender = sender
    }
}
