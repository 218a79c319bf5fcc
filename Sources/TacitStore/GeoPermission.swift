import Foundation
import TacitCore

/// The countries an application lets one channel reach (docs/fraud.md#geo-permissions): a
/// number whose region is not among them is refused that channel, or only recorded when the
/// mode is `monitor`. A channel without a permission reaches every country.
public struct GeoPermission: Sendable, Equatable {
    /// What a number outside the list meets.
    public enum Mode: String, Sendable, CaseIterable {
        /// The channel is refused: its steps are skipped, or the start refused when no step is left.
        case enforce
        /// Nothing is refused; the start's timeline records what would have been (`fraud:monitored`).
        case monitor
    }

    public var applicationId: String
    /// A channel that reaches a number: never `email`, which is not geographic.
    public var channel: Channel
    /// ISO 3166 alpha-2 region codes as libphonenumber gives them (`US`, `GB`), upper case, sorted.
    public var countries: [String]
    public var mode: Mode
    public var updatedAt: Date

    public init(applicationId: String, channel: Channel, countries: [String], mode: Mode = .enforce,
                updatedAt: Date) {
        self.applicationId = applicationId
        self.channel = channel
        self.countries = countries
        self.mode = mode
        self.updatedAt = updatedAt
    }

    /// Whether the channel may reach a number of `region` (nil: a number of no country, such
    /// as a non-geographic range, which no list names).
    public func allows(_ region: String?) -> Bool {
        region.map(countries.contains) ?? false
    }

    /// The channels a permission can be set for: every one that reaches a number.
    public static let channels: [Channel] = Channel.allCases.filter { $0 != .email }
}
