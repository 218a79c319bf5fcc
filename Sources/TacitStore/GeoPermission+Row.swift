import Foundation
import TacitCore

extension GeoPermission {
    /// The countries as both stores keep them: one comma-separated text.
    public var storedCountries: String { countries.joined(separator: ",") }

    /// A permission from a store's row; nil for a channel or a mode this version doesn't know,
    /// which a newer version may have written: that channel then reaches every country.
    public init?(stored application: String, channel: String, countries: String, mode: String,
                 updatedAt: Date) throws {
        guard let channel = Channel(rawValue: channel), let mode = Mode(rawValue: mode) else { return nil }
        self.init(applicationId: application, channel: channel,
                  countries: countries.split(separator: ",").map(String.init), mode: mode, updatedAt: updatedAt)
    }
}
