/// What one input decided: the effects to carry out and, for a code check, its result;
/// or, for a refused input, the refusal, with nothing changed and nothing to carry out.
/// The machine keeps none of it: a caller that drops a decision drops its effects.
public struct WorkflowDecision: Sendable, Equatable {
    public var effects: [WorkflowEffect]
    /// Set for `.codeSubmitted` only.
    public var check: CheckResult?
    /// Why the input was refused; only `.next`, `.cancel`, `.resend` and `.approve` can be.
    public var refusal: WorkflowRefusal?

    public init(effects: [WorkflowEffect] = [], check: CheckResult? = nil, refusal: WorkflowRefusal? = nil) {
        self.effects = effects
        self.check = check
        self.refusal = refusal
    }

    /// The events among the effects, in order.
    public var events: [WorkflowEvent] { effects.compactMap(\.event) }
}

/// The answer to a code check, for the API to map to a response.
public enum CheckResult: Sendable, Equatable {
    case completed
    case wrongCode(attemptsRemaining: Int)
    case tooManyAttempts
    case notPending(VerificationStatus)
}

/// Why an input was refused without changing anything.
public enum WorkflowRefusal: Error, Sendable, Equatable {
    case notPending(VerificationStatus)
    case noNextChannel
}
