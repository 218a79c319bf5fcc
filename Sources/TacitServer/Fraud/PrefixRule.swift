import Foundation
import TacitStore

/// When a destination prefix is blocked (docs/fraud.md#prefix-blocks): it has taken enough
/// sends that never converted, it has at most a few conversions, and it converts far below the
/// application's own baseline; a prefix with no conversion at all needs no baseline. Pure: the
/// ledger hands it the window's figures.
struct PrefixRule: Sendable, Equatable {
    /// Sends without a conversion the prefix must have taken in the window.
    var minimumUnconverted: Int
    /// More conversions than this and the prefix is never blocked: real people use it.
    var maximumConversions: Int
    /// The prefix's conversion must be below this share of the application's baseline.
    var baselineShare: Double

    /// Sends the application needs in the window before its conversion counts as a baseline.
    static let baselineSends = 20

    /// The thresholds of `level`; nil at `off`, which blocks no prefix.
    static func at(_ level: FraudLevel) -> PrefixRule? {
        switch level {
        case .off: nil
        case .basic: PrefixRule(minimumUnconverted: 30, maximumConversions: 1, baselineShare: 0.1)
        case .standard: PrefixRule(minimumUnconverted: 10, maximumConversions: 2, baselineShare: 0.25)
        case .max: PrefixRule(minimumUnconverted: 5, maximumConversions: 3, baselineShare: 0.5)
        }
    }

    /// The rule that fires for a prefix with these figures, if one does: `prefix_volume` (sends
    /// and no conversion) or `prefix_conversion` (conversion far below `baseline`).
    func fires(sends: Int, conversions: Int, baseline: Double?) -> String? {
        guard sends - conversions >= minimumUnconverted, conversions <= maximumConversions else { return nil }
        if conversions == 0 { return "prefix_volume" }
        guard let baseline, Double(conversions) / Double(sends) < baselineShare * baseline else { return nil }
        return "prefix_conversion"
    }

    /// The answer to a start refused by `block`: 403 `fraud-blocked` with the seconds until it
    /// ends; the prefix is a part of a number, so it stays out of the answer.
    static func refusal(_ block: PrefixBlock, now: Date) -> APIProblem {
        var problem = APIProblem(status: 403, type: "fraud-blocked", title: "Blocked by fraud protection",
                                 detail: "The phone number lies in a range the application's fraud protection has"
                                     + " blocked for a while (rule \(block.rule)); retry later.")
        problem.retryAfter = max(1, Int(block.blockedUntil.timeIntervalSince(now).rounded(.up)))
        return problem
    }

    /// How long the `strikes`th block of a prefix in a row lasts: 1 h, then 6 h, then 24 h.
    static func duration(strikes: Int) -> TimeInterval {
        [3_600, 21_600, 86_400][min(max(strikes, 1), 3) - 1]
    }
}
