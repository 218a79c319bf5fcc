import Foundation
import TacitCore

/// Builds verifications and drives machines for the tests.
struct MachineFixture {
    static let start = Date(timeIntervalSince1970: 1_796_000_000)

    var verification: Verification
    var now: Date

    init(_ channels: [Channel] = [.silentAuth, .sms, .voice], simSwap: SimSwapPolicy? = nil, timeout: Int = 60) {
        let options = VerificationOptions(workflow: channels, channelTimeout: timeout, simSwap: simSwap)
        verification = Verification(id: "vf_test", phoneNumber: "+99012345670", options: options, clientTokenHash: [1],
                                    createdAt: Self.start)
        now = Self.start
    }

    /// Applies an input at the current time and keeps the new state; throws a refusal, for
    /// tests that only expect inputs to be taken.
    @discardableResult
    mutating func apply(_ input: WorkflowInput) throws(WorkflowRefusal) -> [WorkflowEffect] {
        let decision = decide(input)
        if let refusal = decision.refusal { throw refusal }
        return decision.effects
    }

    /// Applies an input at the current time, keeps the new state and returns the whole decision.
    mutating func decide(_ input: WorkflowInput) -> WorkflowDecision {
        var machine = WorkflowMachine(verification, now: now)
        let decision = machine.handle(input)
        verification = machine.verification
        return decision
    }

    /// Submits a code through `handle`, as the runner does.
    mutating func check(_ matches: Bool) -> CheckResult {
        // `.codeSubmitted` is never refused: a check's answer is in the decision.
        decide(.codeSubmitted(matches: matches)).check ?? .notPending(.pending)
    }

    mutating func advance(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }

    var statuses: [StepStatus] { verification.workflow.map(\.status) }
}

extension [WorkflowEffect] {
    var labels: [String] { compactMap { $0.event?.label } }
    var webhooks: [WebhookEvent] { compactMap { if case .notifyWebhook(let event, _) = $0 { return event } else { return nil } } }
    /// The channels the runner is asked to start: a code to issue, or a silent check to begin.
    var started: [Channel] {
        compactMap { effect in
            switch effect {
            case .issueCode(_, let channel): channel
            case .beginSilentCheck: .silentAuth
            default: nil
            }
        }
    }
}
