import Foundation

/// Where a verification stands. Each case holds exactly what is true in it, so a
/// finished verification can't keep a deadline or a code, and a pending one always
/// has the step it is trying, with that step's deadline.
public enum VerificationState: Sendable, Equatable {
    /// Created, no step tried yet (the create starts it before anything is stored).
    case unstarted
    /// Trying one step of the workflow.
    case pending(ActiveStep)
    case finished(VerificationOutcome)

    public var status: VerificationStatus {
        switch self {
        case .unstarted, .pending: .pending
        case .finished(let outcome): outcome.status
        }
    }

    /// The step being tried, while pending.
    public var activeStep: ActiveStep? {
        if case .pending(let step) = self { return step }
        return nil
    }
}

/// The step a pending verification is trying.
public struct ActiveStep: Sendable, Equatable {
    /// The step's index in the workflow.
    public var index: Int
    /// When the step times out; the timer scheduler wakes for it.
    public var deadline: Date
    /// The keyed hash of this step's code, once one was issued (a code step's code, or a
    /// silent step's latch and then its code). A new step starts with none.
    public var codeHash: [UInt8]?

    public init(index: Int, deadline: Date, codeHash: [UInt8]? = nil) {
        self.index = index
        self.deadline = deadline
        self.codeHash = codeHash
    }
}

/// How a finished verification ended.
public enum VerificationOutcome: String, Sendable, Equatable, CaseIterable {
    case completed, failed, expired, cancelled

    public var status: VerificationStatus {
        switch self {
        case .completed: .completed
        case .failed: .failed
        case .expired: .expired
        case .cancelled: .cancelled
        }
    }
}

extension VerificationState {
    /// Rebuilds the state from the columns stores keep (the stored format predates
    /// this type). A pending row without a step is unstarted; a finished one keeps
    /// neither deadline nor code, as the machine never leaves them there.
    public init(status: VerificationStatus, currentStep: Int?, deadline: Date?, codeHash: [UInt8]?, codeStep: Int?) {
        guard let outcome = VerificationOutcome(rawValue: status.rawValue) else {
            guard let currentStep, let deadline else { self = .unstarted; return }
            self = .pending(ActiveStep(index: currentStep, deadline: deadline,
                                       codeHash: codeStep == currentStep ? codeHash : nil))
            return
        }
        self = .finished(outcome)
    }

    /// The stored columns' values, the inverse of `init(status:currentStep:…)`.
    public var currentStep: Int? { activeStep?.index }
    public var deadline: Date? { activeStep?.deadline }
    public var codeHash: [UInt8]? { activeStep?.codeHash }
    public var codeStep: Int? { activeStep.flatMap { $0.codeHash == nil ? nil : $0.index } }
}
