import TacitCore
import TacitPhone
import TacitStore

/// What a number's kind of line allows (docs/fraud.md#line-types), read from libphonenumber
/// when the start parsed the number, so the rules cost no second look-up.
enum LineTypeRules {
    /// Lines an SMS pumping attack is paid on: refused before anything is sent, at every
    /// protection level but `off` (docs/fraud.md#protection-levels).
    static let blocked: Set<PhoneLineType> = [.premiumRate, .sharedCost, .uan]

    /// The lines refused at `level`: none at `off`, VoIP too at `max`.
    static func refused(at level: FraudLevel) -> Set<PhoneLineType> {
        switch level {
        case .off: []
        case .basic, .standard: blocked
        case .max: blocked.union([.voip])
        }
    }

    /// The start guard's answer for a number on `lineType` at `level`, nil when the line may be verified.
    static func refusal(_ lineType: PhoneLineType, level: FraudLevel = .basic) -> APIProblem? {
        guard refused(at: level).contains(lineType) else { return nil }
        return APIProblem(status: 403, type: "fraud-blocked", title: "Blocked by fraud protection",
                          detail: "The phone number is \(lineType.phrase), to which Tacit sends no codes"
                              + " (rule line_type).")
    }

    /// Why a step on `channel` can't reach a number on `lineType` (its wire string), if it can't:
    /// an SMS to a fixed line is never sent.
    static func unreachable(_ channel: Channel, lineType: String?) -> EndReason? {
        channel == .sms && lineType == PhoneLineType.fixedLine.rawValue ? .fixedLine : nil
    }

    /// Refuses a start whose SMS steps a fixed line can't take and that has no voice step to
    /// use instead: 422 `invalid-phone-number`, as fixed lines were refused before, so a
    /// client sees the same answer; with a voice step the SMS steps are skipped instead.
    static func workflowRefusal(_ verification: Verification) -> APIProblem? {
        let channels = verification.workflow.map(\.channel)
        guard verification.lineType == PhoneLineType.fixedLine.rawValue, channels.contains(.sms),
              !channels.contains(.voice) else { return nil }
        return fixedLineWithoutVoice
    }

    static let fixedLineWithoutVoice = APIProblem.invalidPhoneNumber(
        "The phone number is a fixed line, which can't receive an SMS, and the workflow has no voice step.")
}
