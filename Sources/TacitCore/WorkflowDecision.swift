/// What one input decided: the effects to carry out and, for a code check, its result.
public struct WorkflowDecision: Sendable, Equatable {
    public var effects: [WorkflowEffect]
    /// Set for `.codeSubmitted` only.
    public var check: CheckResult?

    public init(effects: [WorkflowEffect] = [], check: CheckResult? = nil) {
        self.effects = effects
        self.check = check
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
