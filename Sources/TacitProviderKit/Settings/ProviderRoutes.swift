import Foundation
import TacitCore

/// Which providers carry a channel, in failover order (docs/providers.md#routing-and-failover):
/// `TACIT_ROUTE_SMS=<first>,<second>` for every number, `TACIT_ROUTE_SMS_GB=<provider>` for one country
/// (ISO 3166 alpha-2).
public struct ProviderRoutes: Sendable, Equatable {
    static let prefix = "TACIT_ROUTE_"

    /// The route that names a channel for every country, with the setting it came from.
    public var byChannel: [Channel: Route] = [:]
    /// Country overrides, keyed by channel and upper-case region.
    public var byCountry: [Key: Route] = [:]

    /// A channel's route to one country.
    public struct Key: Hashable, Sendable {
        /// The channel routed.
        public var channel: Channel
        /// Upper-case ISO 3166 alpha-2.
        public var region: String
        /// The key of `channel`'s route to `region` (upper-case ISO 3166 alpha-2).
        public init(channel: Channel, region: String) {
            self.channel = channel
            self.region = region
        }
    }

    /// One route: the channel, and the providers that carry it in failover order.
    public struct Route: Sendable, Equatable {
        /// The `TACIT_ROUTE_*` name, for start-up errors.
        public var setting: String
        /// The channel routed.
        public var channel: Channel
        /// Route names, in failover order.
        public var providers: [String]
    }

    /// No route at all.
    public init() {}

    /// Parses `TACIT_ROUTE_<CHANNEL>[_<CC>]` variables.
    public init(settings: [String: String]) throws(ProviderSetupError) {
        for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
            let (channel, region) = try Self.parse(name: name)
            let names = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty }
            guard !names.isEmpty else { throw ProviderSetupError(setting: name, problem: "names no provider") }
            let route = Route(setting: name, channel: channel, providers: names)
            if let region {
                byCountry[Key(channel: channel, region: region)] = route
            } else {
                byChannel[channel] = route
            }
        }
    }

    /// Every route, for checking the providers they name.
    public var all: [Route] { (Array(byChannel.values) + Array(byCountry.values)).sorted { $0.setting < $1.setting } }

    /// The route for `channel` to a number in `region`, if one was set.
    public func route(for channel: Channel, region: String?) -> Route? {
        if let region, let route = byCountry[Key(channel: channel, region: region.uppercased())] { return route }
        return byChannel[channel]
    }

    /// `SMS_GB` → (.sms, "GB"); the longest channel name wins, so `SILENT_AUTH` is one channel.
    private static func parse(name: String) throws(ProviderSetupError) -> (Channel, String?) {
        let rest = name.dropFirst(prefix.count).lowercased()
        let channels = Channel.allCases.sorted { $0.rawValue.count > $1.rawValue.count }
        guard let channel = channels.first(where: { rest.hasPrefix($0.rawValue) }) else {
            throw ProviderSetupError(setting: name,
                                     problem: "is not a channel's route (sms, voice, whatsapp, silent_auth)")
        }
        let tail = rest.dropFirst(channel.rawValue.count)
        if tail.isEmpty { return (channel, nil) }
        guard tail.count == 3, tail.first == "_", tail.dropFirst().allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw ProviderSetupError(setting: name,
                                     problem: "must end in a two-letter country code, as in TACIT_ROUTE_SMS_GB")
        }
        return (channel, tail.dropFirst().uppercased())
    }
}
