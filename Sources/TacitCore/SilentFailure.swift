/// Why a silent-auth step did not complete (docs/api.md#silent-authentication): the subset of end reasons a
/// silent-auth provider, the check URL or the device can report.
public enum SilentFailure: Sendable, Equatable, CaseIterable {
    /// The SIM does not match the number: the step is `rejected`.
    case rejected
    case carrierError
    case noCoverage
    case deviceNotCellular
    case replayed
    case expired
    case integrity
    case unavailable
    /// The provider refused the submitted code and allows no other attempt at its check
    /// (a silent provider that allows one attempt): the step ends as its attempts ran out.
    case wrongCode

    public var endReason: EndReason {
        switch self {
        case .rejected: .rejected
        case .carrierError: .carrierError
        case .noCoverage: .noCoverage
        case .deviceNotCellular: .deviceNotCellular
        case .replayed: .checkURLReplayed
        case .expired: .checkURLExpired
        case .integrity: .integrityError
        case .unavailable: .unavailable
        case .wrongCode: .tooManyAttempts
        }
    }

    /// The reason's wire string.
    public var rawValue: String { endReason.rawValue }

    var stepStatus: StepStatus { self == .rejected ? .rejected : .failed }

    /// No coverage is not a failure of the step, only a reason to move past it.
    var stepEndLabel: StepEndLabel {
        switch self {
        case .rejected: .rejected
        case .noCoverage: .skipped
        default: .failed
        }
    }
}
