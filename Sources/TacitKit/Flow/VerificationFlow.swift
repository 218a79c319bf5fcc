/// What the verification screen shows, derived only from the server's state.
///
/// A pure value: `apply` maps a `Verification` or a timeline event to the
/// screen, so the screen follows the server wherever it moves (including its
/// own auto-advance when a step times out). It never moves backwards: a stale
/// state read that names an earlier step, or anything after a final state for
/// the same request, is ignored.
public struct VerificationFlow: Sendable, Equatable {
    /// One screen.
    public enum State: Sendable, Equatable {
        case idle
        case starting
        case awaitingSilentAuth(requestId: String)
        case enteringSmsCode(requestId: String)
        case enteringVoiceCode(requestId: String)
        case enteringWhatsAppCode(requestId: String)
        case enteringEmailCode(requestId: String)
        case verified
        case failed(reason: FailureReason)

        /// Whether the flow has ended.
        public var isFinal: Bool {
            switch self {
            case .verified, .failed: true
            default: false
            }
        }
    }

    /// Why the flow ended without a verified number.
    public enum FailureReason: Sendable, Equatable {
        /// Every step failed, or too many wrong codes.
        case verificationFailed
        case expired
        case cancelled
        /// The start call was refused; carries the problem slug (e.g. `invalid-phone-number`).
        case startRejected(type: String)
        /// The server stopped answering.
        case unreachable
    }

    public internal(set) var state: State = .idle
    /// The verification being followed, once started.
    public internal(set) var requestId: String?
    /// The workflow step the screen shows, so stale reads can't move it back.
    var stepIndex = -1
    var workflow: [Channel] = []

    public init() {}

    /// The app asked to start: show progress until the server answers.
    public mutating func begin() {
        self = VerificationFlow()
        state = .starting
    }

    /// Ends the flow locally, e.g. when starting failed or the server is gone.
    public mutating func fail(_ reason: FailureReason) {
        if !state.isFinal { state = .failed(reason: reason) }
    }

    /// Maps the server's state to the screen.
    public mutating func apply(_ verification: Verification) {
        if requestId != verification.requestId {
            requestId = verification.requestId
            stepIndex = -1
            state = .starting
        }
        guard !state.isFinal else { return }
        switch verification.status {
        case .completed: state = .verified
        case .failed: state = .failed(reason: .verificationFailed)
        case .expired: state = .failed(reason: .expired)
        case .cancelled: state = .failed(reason: .cancelled)
        case .pending: applyPending(verification)
        }
    }

    private mutating func applyPending(_ verification: Verification) {
        if !verification.workflow.isEmpty { workflow = verification.workflow.map(\.channel) }
        guard let channel = verification.activeChannel else { return }
        let index = verification.activeStepIndex ?? stepIndex
        guard index >= stepIndex else { return }
        stepIndex = index
        state = Self.screen(for: channel, requestId: verification.requestId)
    }

    static func screen(for channel: Channel, requestId: String) -> State {
        switch channel {
        case .silentAuth: .awaitingSilentAuth(requestId: requestId)
        case .sms: .enteringSmsCode(requestId: requestId)
        case .voice: .enteringVoiceCode(requestId: requestId)
        case .whatsapp: .enteringWhatsAppCode(requestId: requestId)
        case .email: .enteringEmailCode(requestId: requestId)
        }
    }
}
