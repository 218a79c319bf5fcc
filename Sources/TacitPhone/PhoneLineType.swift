/// What kind of line a number is, as libphonenumber's metadata classifies it.
public enum PhoneLineType: String, Sendable, Hashable, CaseIterable {
    case fixedLine = "fixed_line"
    case mobile
    /// Regions such as the US and Canada, where the number alone can't tell.
    case fixedLineOrMobile = "fixed_line_or_mobile"
    case tollFree = "toll_free"
    case premiumRate = "premium_rate"
    case sharedCost = "shared_cost"
    case voip
    case personalNumber = "personal_number"
    case pager
    /// Universal access numbers (company numbers routed anywhere).
    case uan
    case voicemail
    case unknown

    /// Maps libphonenumber's `PhoneNumberType` (as the shim passes it, an int).
    init(libphonenumberType type: Int32) {
        let ordered: [PhoneLineType] = [
            .fixedLine, .mobile, .fixedLineOrMobile, .tollFree, .premiumRate, .sharedCost,
            .voip, .personalNumber, .pager, .uan, .voicemail, .unknown,
        ]
        self = ordered.indices.contains(Int(type)) ? ordered[Int(type)] : .unknown
    }

    /// Whether a one-time code sent by SMS or voice can reach a person on this line.
    ///
    /// VoIP and personal numbers can receive SMS, so they pass; callers wanting
    /// stricter fraud rules can refuse them by looking at ``PhoneNumber/lineType``.
    public var canReceiveCodes: Bool {
        switch self {
        case .mobile, .fixedLineOrMobile, .voip, .personalNumber: true
        default: false
        }
    }

    /// Lines the start's fraud rules judge instead of the parser (docs/fraud.md#line-types): a
    /// fixed line can take a call, so a workflow with a voice step still reaches it, and
    /// premium-rate, shared-cost and UAN numbers are refused with `fraud-blocked`.
    public var isJudgedAtStart: Bool {
        switch self {
        case .fixedLine, .premiumRate, .sharedCost, .uan: true
        default: false
        }
    }

    /// Words for descriptions: "a premium-rate number".
    public var phrase: String {
        switch self {
        case .fixedLine: "a fixed-line number"
        case .mobile: "a mobile number"
        case .fixedLineOrMobile: "a fixed-line or mobile number"
        case .tollFree: "a toll-free number"
        case .premiumRate: "a premium-rate number"
        case .sharedCost: "a shared-cost number"
        case .voip: "a VoIP number"
        case .personalNumber: "a personal number"
        case .pager: "a pager number"
        case .uan: "a universal access number"
        case .voicemail: "a voicemail access number"
        case .unknown: "a number of unknown type"
        }
    }
}
