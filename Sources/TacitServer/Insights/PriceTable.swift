import Foundation
import TacitCore

/// The prices of sends whose provider reports none (`TACIT_PRICES`, docs/settings.md#prices):
/// one line per price, `channel,provider,country,price,currency`, where `*` in provider or
/// country matches any. The most specific line wins: provider and country named, then
/// provider only, then country only, then neither.
public struct PriceTable: Sendable, Equatable {
    struct Key: Hashable {
        var channel: Channel
        var provider: String
        var country: String
    }
    struct Entry: Sendable, Equatable {
        var price: String
        var currency: String
    }
    var entries: [Key: Entry] = [:]

    public init() {}

    /// A line the table can't read, by its number (from 1) and what is wrong; never its content.
    public struct LineError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// Reads the table's text. Blank lines and lines starting with `#` are skipped.
    public init(text: String) throws(LineError) {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let number = index + 1
            guard fields.count == 5 else { throw LineError(line: number, reason: "needs 5 fields") }
            guard let channel = Channel(rawValue: fields[0]) else {
                throw LineError(line: number, reason: "unknown channel")
            }
            guard !fields[1].isEmpty else { throw LineError(line: number, reason: "empty provider") }
            let country = fields[2]
            guard country == "*" || Price.isCurrency(country.count == 2 ? country + "X" : country) else {
                throw LineError(line: number, reason: "country is not * or an ISO 3166 alpha-2 code")
            }
            guard Price.isWellFormed(fields[3]), !fields[3].hasPrefix("-") else {
                throw LineError(line: number, reason: "price is not a positive decimal")
            }
            guard Price.isCurrency(fields[4]) else { throw LineError(line: number, reason: "currency is not ISO 4217") }
            entries[Key(channel: channel, provider: fields[1], country: country)] =
                Entry(price: Price.magnitude(fields[3]), currency: fields[4])
        }
    }

    /// The price of a message on `channel` by `provider` to a number in `country`, if the table has one.
    func price(channel: Channel, provider: String, country: String?) -> Entry? {
        let country = country ?? "*"
        for (p, c) in [(provider, country), (provider, "*"), ("*", country), ("*", "*")] {
            if let entry = entries[Key(channel: channel, provider: p, country: c)] { return entry }
        }
        return nil
    }

    public var isEmpty: Bool { entries.isEmpty }
}
