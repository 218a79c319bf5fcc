import Foundation
import TacitStore

/// When a destination prefix is blocked (docs/fraud.md#prefix-blocks): it has taken enough
/// sends that never converted, it has at most a few conversions, and either it suddenly takes a
/// large share of the application's sends without a single conversion, or it converts far below
/// the application's own baseline on more evidence. Pure: the ledger hands it the figures.
struct PrefixRule: Sendable, Equatable {
    /// Sends without a conversion the prefix must have taken in the window.
    var minimumUnconverted: Int
    /// More conversions than this and the prefix is never blocked: real people use it.
    var maximumConversions: Int
    /// The prefix's conversion must be below this share of the application's baseline.
    var baselineShare: Double
    /// The share of the application's recent sends a prefix must take to be blocked at all: a
    /// pumped range takes many at once, a country's real users their usual few, whose codes may
    /// not have been typed yet and whose slow typing would otherwise look like low conversion.
    var volumeShare: Double

    /// How many of the application's latest sends the volume share is taken over.
    static let recentSends = 100
    /// How much more unconverted evidence a block on conversion needs than one on volume: a
    /// prefix judged on conversion has sends whose codes are still being typed.
    static let conversionEvidence = 2

    /// Sends the application needs in the window before its conversion counts as a baseline.
    static let baselineSends = 20

    /// The thresholds of `level`; nil at `off`, which blocks no prefix.
    static func at(_ level: FraudLevel) -> PrefixRule? {
        switch level {
        case .off: nil
        case .basic: PrefixRule(minimumUnconverted: 30, maximumConversions: 1, baselineShare: 0.1, volumeShare: 0.2)
        case .standard:
            PrefixRule(minimumUnconverted: 10, maximumConversions: 2, baselineShare: 0.25, volumeShare: 0.1)
        case .max: PrefixRule(minimumUnconverted: 5, maximumConversions: 3, baselineShare: 0.5, volumeShare: 0.1)
        }
    }

    /// The rule that fires for a prefix with these figures, if one does, when the prefix takes
    /// at least `volumeShare` of the application's latest sends (`recentShare`): `prefix_volume`
    /// (sends and no conversion) or `prefix_conversion` (twice the evidence, and conversion far
    /// below `baseline`).
    func fires(sends: Int, conversions: Int, baseline: Double?, recentShare: Double = 1) -> String? {
        let unconverted = sends - conversions
        guard unconverted >= minimumUnconverted, conversions <= maximumConversions,
              recentShare >= volumeShare else { return nil }
        if conversions == 0 { return "prefix_volume" }
        guard unconverted >= Self.conversionEvidence * minimumUnconverted, let baseline,
              Double(conversions) / Double(sends) < baselineShare * baseline else { return nil }
        return "prefix_conversion"
    }

    /// The name a rule that fired on a mobile network's figures goes by: `network_volume`,
    /// `network_conversion` (docs/fraud.md#mobile-networks).
    static func onNetwork(_ rule: String) -> String {
        rule.hasPrefix("prefix_") ? "network_" + rule.dropFirst("prefix_".count) : rule
    }

    /// The answer to a start refused by `block`: 403 `fraud-blocked` with the seconds until it
    /// ends; the prefix is a part of a number, so it stays out of the answer, and so does a
    /// network, which would say where the number is.
    static func refusal(_ block: PrefixBlock, now: Date) -> APIProblem {
        let place = PrefixLedger.isNetwork(block.prefix)
            ? "The phone number's range is served by a mobile network" : "The phone number lies in a range"
        var problem = APIProblem(status: 403, type: "fraud-blocked", title: "Blocked by fraud protection",
                                 detail: place + " the application's fraud protection has"
                                     + " blocked for a while (rule \(block.rule)); retry later.")
        problem.retryAfter = max(1, Int(block.blockedUntil.timeIntervalSince(now).rounded(.up)))
        return problem
    }

    /// How long the `strikes`th block of a prefix in a row lasts: 1 h, then 6 h, then 24 h.
    static func duration(strikes: Int) -> TimeInterval {
        [3_600, 21_600, 86_400][min(max(strikes, 1), 3) - 1]
    }
}
