import Foundation
import TacitCore

extension WorkflowRunner {
    /// One transaction's turn of a verification's machine. Each input goes through the
    /// machine's `handle`, its one way in, and the turn keeps what each decision asked
    /// for, in order: the effects the transaction commits and the runner then carries out.
    /// The machine itself keeps none. A refused input is thrown, so the transaction that
    /// met it rolls back and its caller answers with the refusal (a 409, a 404…).
    public struct Turn {
        private var machine: WorkflowMachine
        /// The effects of every decision of this turn, in the order they were decided.
        public private(set) var effects: [WorkflowEffect] = []

        init(_ verification: Verification, now: Date, limits: AttemptLimits = .standard) {
            machine = WorkflowMachine(verification, now: now, limits: limits)
        }

        public var verification: Verification { machine.verification }
        /// The provider's check for the active step, if it issued one.
        var activeSilentCheck: SilentCheckReference? { machine.activeSilentCheck }

        /// Applies `input` and keeps the effects it decided. Throws the refusal of a refused
        /// input, which changed nothing; a caller that must not roll back catches it.
        @discardableResult
        public mutating func handle(_ input: WorkflowInput) throws(WorkflowRefusal) -> WorkflowDecision {
            let decision = machine.handle(input)
            if let refusal = decision.refusal { throw refusal }
            // The first decision's effects are kept as they are, not copied: most turns have one.
            if effects.isEmpty {
                effects = decision.effects
            } else {
                effects += decision.effects
            }
            return decision
        }
    }
}
