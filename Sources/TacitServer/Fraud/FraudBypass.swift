import TacitCore

/// A start that skips the automatic rules (docs/fraud.md#safe-list-and-risk_check): its number
/// is on the application's safe list, or the request said `risk_check: disable`. The start guard
/// decides it and the runner writes it on the start's timeline as a `fraud:bypassed` event, so a
/// start let through unjudged is never silent.
struct FraudBypass: Sendable, Equatable {
    enum Reason: String, Sendable {
        /// The number or its prefix is on the application's safe list.
        case safeList = "safe_list"
        /// The request asked for no risk check.
        case riskCheck = "risk_check"
    }

    /// The bypass of the start the current task serves, set by the start guard around its route.
    @TaskLocal static var current: FraudBypass?

    let reason: Reason
    /// The rules that would have judged the start and didn't: `address_limit`, `sequential_numbers`.
    var rules: [String] = []

    /// The start's `fraud:bypassed` event.
    var event: EventDraft {
        let why = switch reason {
        case .safeList: "its number is on the application's safe list"
        case .riskCheck: "the request asked for no risk check (risk_check: disable)"
        }
        let skipped = rules.isEmpty ? "no rule applied to it" : "it skipped " + rules.joined(separator: " and ")
        return EventDraft("fraud:bypassed", note: "The automatic fraud rules let this start through because \(why):"
                              + " \(skipped). The line-type refusal and the per-number limits still applied.",
                          data: ["reason": .text(reason.rawValue), "rules": .list(rules.map { .text($0) })])
    }
}
