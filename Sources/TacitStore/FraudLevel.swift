/// How hard an application's fraud protection judges its starts (docs/fraud.md#protection-levels).
/// Every level keeps the limits and lists that exist at every level; higher ones block earlier
/// and more widely.
public enum FraudLevel: String, Sendable, Equatable, CaseIterable {
    /// No automatic rule: premium-rate, shared-cost and UAN numbers too are verified.
    case off
    /// The default: line types refused, prefixes blocked only on strong evidence.
    case basic
    /// Prefixes blocked on less evidence.
    case standard
    /// Prefixes blocked earliest, and VoIP numbers refused too.
    case max
}
