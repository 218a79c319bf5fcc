import Foundation

/// The persisted state of one verification. Secrets are never held here in clear:
/// the code and the client token only as keyed hashes.
public struct Verification: Sendable, Equatable {
    public var id: String
    /// E.164. Kept in memory only; stores persist it sealed. Empty for a verification of an
    /// address alone (a face's email channel): `contact` is then its address.
    public var phoneNumber: String
    /// The address an email step sends to; like the number, kept sealed by stores.
    public var emailAddress: String?
    public var brand: String
    /// The locale its messages are written in: as the start asked for it, or chosen from
    /// the number's region when it asked for none (docs/locales.md).
    public var locale: String
    /// Why `locale` is what it is: `requested`, `number` (from the number's region) or
    /// `default`; nil for a verification stored before locales were chosen.
    public var localeSource: String?
    public var clientRef: String?
    /// The SMS Retriever hash this start gave, which replaces its application's.
    public var smsAppHash: String?
    public var codeLength: Int
    public var channelTimeout: Int
    public var simSwap: SimSwapPolicy?
    public var workflow: [WorkflowStep]
    /// Where the verification stands. Only the core sets it (the workflow machine moves it
    /// on); a store restores it through `init(id:phoneNumber:options:clientTokenHash:createdAt:state:)`.
    public internal(set) var state: VerificationState
    public var failedAttempts: Int
    public var risk: Risk
    public var clientTokenHash: [UInt8]
    public var createdAt: Date
    public var endedAt: Date?
    /// The last timeline sequence number used; events continue from here without gaps.
    public var lastSeq: Int
    /// The application that owns it: only that application's credentials see it.
    public var applicationId: String = Verification.defaultApplication
    /// The API that started it (`v1`, or the name of a drop-in compatible face).
    public var face: String = Verification.v1Face
    /// The provider's check for a silent step whose device ends at the provider; only
    /// the machine sets it (for the active silent step); stores keep it as it is.
    public var silentCheck: SilentCheckReference?
    /// The number's kind of line as its start read it from libphonenumber (`mobile`, `fixed_line`,
    /// docs/fraud.md#line-types); nil when no start read it.
    public var lineType: String?
    /// A test number's fixed code, sealed with the server's keys (docs/fraud.md#test-numbers):
    /// every code step of the verification takes it and nothing is sent. nil for any other number.
    public var sealedTestCode: [UInt8]?
    /// The channels the application's geo permissions refused the number's country when it
    /// started (docs/fraud.md#geo-permissions): a step on one is skipped with reason `geo`.
    public var geoRefusedChannels: [Channel] = []

    /// The application that keys made before applications existed belong to.
    public static let defaultApplication = "default"
    /// What a verification started through `/v1` records as its face.
    public static let v1Face = "v1"

    /// A verification with `options`' workflow, each step unused, in `state`: a new one is
    /// unstarted; a store restoring one from a row passes the state its columns keep
    /// (`VerificationState(status:currentStep:…)`), then sets the rest of the row.
    public init(
        id: String, phoneNumber: String, options: VerificationOptions,
        clientTokenHash: [UInt8], createdAt: Date, state: VerificationState = .unstarted
    ) {
        self.id = id
        self.phoneNumber = phoneNumber
        self.brand = options.brand
        self.locale = options.locale
        self.clientRef = options.clientRef
        self.smsAppHash = options.smsAppHash
        self.codeLength = options.codeLength
        self.channelTimeout = options.channelTimeout
        self.simSwap = options.simSwap
        self.emailAddress = options.emailAddress
        self.workflow = options.workflow.map { WorkflowStep(channel: $0) }
        self.state = state
        self.failedAttempts = 0
        self.risk = Risk()
        self.clientTokenHash = clientTokenHash
        self.createdAt = createdAt
        self.endedAt = nil
        self.lastSeq = 0
    }

    /// Whom the verification is for, as stores find its pending one and limits count it:
    /// its number, or the address of a verification of an address alone.
    public var contact: String { phoneNumber.isEmpty ? emailAddress ?? "" : phoneNumber }

    public var status: VerificationStatus { state.status }
    /// The index of the step being tried now, if any.
    public var currentStep: Int? { state.currentStep }
    /// When the current step times out; the timer scheduler wakes for it.
    public var deadline: Date? { state.deadline }
    /// The keyed hash of the current step's code, if one was issued.
    public var codeHash: [UInt8]? { state.codeHash }
    /// The step `codeHash` belongs to (always the current step).
    public var codeStep: Int? { state.codeStep }

    /// The step being tried now, if any.
    public var activeStep: WorkflowStep? { currentStep.map { workflow[$0] } }
    public var activeChannel: Channel? { activeStep?.channel }

    /// The latest moment the verification can still be pending: the current step's
    /// deadline plus a full timeout for each step not yet tried.
    public var expiresAt: Date? {
        guard let active = state.activeStep else { return nil }
        let remaining = workflow.count - active.index - 1
        return active.deadline.addingTimeInterval(TimeInterval(remaining * channelTimeout))
    }
}
