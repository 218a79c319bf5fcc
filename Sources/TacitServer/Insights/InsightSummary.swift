import Foundation
import TacitCore
import TacitStore

/// The summary's answer (docs/api.md#the-summary), from rollup sums.
struct InsightSummary {
    let from: Date
    let to: Date
    let grouping: InsightGrouping
    let sums: [RollupSum]
    let totals: [RollupSum]

    static func grouping(named name: String) -> InsightGrouping? {
        switch name {
        case "channel": .dimension(.channel)
        case "country": .dimension(.country)
        case "provider": .dimension(.provider)
        case "prefix": .dimension(.prefix)
        case "day": .day
        default: nil
        }
    }

    var groupName: String {
        switch grouping {
        case .day: "day"
        case .dimension(let dimension): dimension.rawValue
        }
    }

    /// One group's figures: its counts and its spend per currency.
    struct Group {
        var key: String
        var counts = InsightCounts()
        var spend: [String: Int64] = [:]

        init(key: String, sums: [RollupSum]) {
            self.key = key
            for sum in sums {
                if sum.currency.isEmpty {
                    counts += sum.counts
                } else {
                    spend[sum.currency, default: 0] += sum.counts.spendMicros
                }
            }
        }
    }

    var groups: [Group] {
        let groups = Dictionary(grouping: sums, by: \.key).map { Group(key: $0.key, sums: $0.value) }
        if grouping == .day { return groups.sorted { $0.key < $1.key } }
        return groups.sorted {
            ($0.counts.starts, $0.counts.sends) != ($1.counts.starts, $1.counts.sends)
                ? ($0.counts.starts, $0.counts.sends) > ($1.counts.starts, $1.counts.sends) : $0.key < $1.key
        }
    }

    var bytes: [UInt8] {
        JSONText.object([
            "from": .string(Timestamp.format(from)),
            "to": .string(Timestamp.format(to)),
            "group_by": .string(groupName),
            "groups": .array(groups.map { group in
                var members = Self.figures(group)
                // A region or prefix the number had none of is the empty key: shown as null.
                members["key"] = group.key.isEmpty && grouping != .day ? .null : .string(group.key)
                return .object(members)
            }),
            "totals": .object(Self.figures(Group(key: "", sums: totals))),
        ])
    }

    static func figures(_ group: Group) -> [String: JSONValue] {
        let c = group.counts
        func rate(_ part: Int, _ whole: Int) -> JSONValue {
            whole == 0 ? .null : .number((Double(part) / Double(whole) * 10000).rounded() / 10000)
        }
        return [
            "starts": .number(Double(c.starts)),
            "sends": .number(Double(c.sends)),
            "conversions": .number(Double(c.conversions)),
            "conversion_rate": rate(c.conversions, c.starts),
            "silent_auth": .object(["attempts": .number(Double(c.silentAttempts)),
                                    "successes": .number(Double(c.silentSuccesses)),
                                    "success_rate": rate(c.silentSuccesses, c.silentAttempts)]),
            "median_seconds_to_verify": c.medianSeconds.map { .number(($0 * 10).rounded() / 10) } ?? .null,
            "blocked_sends": .number(Double(c.blocked)),
            "delivered": .number(Double(c.delivered)),
            "undelivered": .number(Double(c.undelivered)),
            // Over the sends a receipt settled: a provider that sends none leaves the rate null.
            "delivery_rate": rate(c.delivered, c.delivered + c.undelivered),
            "median_delivery_seconds": c.medianDeliverySeconds.map { .number(($0 * 10).rounded() / 10) } ?? .null,
            // A currency whose prices were all replaced (a table's by a receipt's) nets to nothing.
            "spend": .array(group.spend.filter { $0.value != 0 }.keys.sorted().map { currency in
                .object(["currency": .string(currency), "amount": .string(amount(group.spend[currency] ?? 0))])
            }),
        ]
    }

    /// Millionths as a decimal string with six places.
    static func amount(_ micros: Int64) -> String {
        let sign = micros < 0 ? "-" : ""
        let size = micros.magnitude
        let fraction = String(size % 1_000_000)
        return sign + String(size / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
