/// Why a step (or the verification) ended without success (docs/api.md#end-reasons). The wire
/// strings below are the one table of them: stored in a step's `reason`, carried in
/// timeline data, and copied by the SDK and the console, whose tests compare their
/// copies with this table.
public enum EndReason: Sendable, Hashable {
    case timeout
    /// The SIM does not match the number.
    case rejected
    case carrierError
    case noCoverage
    case deviceNotCellular
    case checkURLReplayed
    case checkURLExpired
    case integrityError
    /// No silent-auth provider is configured.
    case unavailable
    case skipped
    case cancelled
    case tooManyAttempts
    case simSwapped
    case providerError
    case noProvider
    case rateLimited
    case destinationDenied
    /// An SMS step to a fixed line, skipped for the workflow's voice step (docs/fraud.md#line-types).
    case fixedLine
    /// A silent step for a test number, which reaches no provider (docs/fraud.md#test-numbers).
    case testNumber
    /// A step whose channel the application's geo permissions don't let reach the number's
    /// country, skipped for a later step's channel that does (docs/fraud.md#geo-permissions).
    case geo
    /// A reason only a sender or a provider's callback names (`provider_undeliverable`):
    /// kept as given, since the set of provider statuses is open.
    case other(String)

    /// Every named reason and its wire string.
    public static let wireNames: [EndReason: String] = [
        .timeout: "timeout",
        .rejected: "rejected",
        .carrierError: "carrier_error",
        .noCoverage: "no_coverage",
        .deviceNotCellular: "device_not_cellular",
        .checkURLReplayed: "check_url_replayed",
        .checkURLExpired: "check_url_expired",
        .integrityError: "integrity_error",
        .unavailable: "unavailable",
        .skipped: "skipped",
        .cancelled: "cancelled",
        .tooManyAttempts: "too_many_attempts",
        .simSwapped: "sim_swapped",
        .providerError: "provider_error",
        .noProvider: "no_provider",
        .rateLimited: "rate_limited",
        .destinationDenied: "destination_denied",
        .fixedLine: "fixed_line",
        .testNumber: "test_number",
        .geo: "geo",
    ]

    private static let byWireName = Dictionary(uniqueKeysWithValues: wireNames.map { ($1, $0) })
}

// Not `RawRepresentable`: the standard library would then hash and compare reasons
// through `rawValue`, which looks reasons up in the table by hash.
extension EndReason {
    /// Never fails: a string outside the table is an `.other` reason.
    public init(rawValue: String) {
        self = Self.byWireName[rawValue] ?? .other(rawValue)
    }

    public var rawValue: String {
        if case .other(let text) = self { return text }
        return Self.wireNames[self] ?? ""
    }
}
