import Foundation
@testable import TacitCore

/// The pending states the table tests start from, on a silent-auth, SMS, voice workflow.
enum PendingState: String, CaseIterable, Sendable, CustomStringConvertible {
    case silentActive, silentLatched, smsWithoutCode, smsWithCode, lastStepWithCode

    var description: String { rawValue }
    var step: Int { [0, 0, 1, 1, 2][Self.allCases.firstIndex(of: self)!] }
    var channel: Channel { [.silentAuth, .sms, .voice][step] }
    var hasCode: Bool { self != .silentActive && self != .smsWithoutCode }
    var isLast: Bool { step == 2 }

    /// Builds the state through the machine itself.
    func make() throws -> MachineFixture {
        var f = MachineFixture()
        try f.apply(.start(simSwapped: nil))
        if step >= 1 { try f.apply(.silentFailed(step: 0, failure: .noCoverage)) }
        if step >= 2 { try f.apply(.next) }
        if hasCode { try f.apply(.codeIssued(step: step, hash: [7])) }
        return f
    }
}

/// One input of each kind, aimed at the active step where it names one.
enum Probe: String, CaseIterable, Sendable, CustomStringConvertible {
    case start, codeIssued, codeIssuedForAnotherStep, delivered, deliveryRefused, rightCode, wrongCode
    case timerDue, timerEarly, timerForAnotherStep, silentRejected, silentRejectedForAnotherStep
    case silentCheckIssued, silentCheckIssuedForAnotherStep, providerMatched, providerMatchedForAnotherStep
    case next, cancel, resend, approve, eventRecorded

    /// The provider's check reference the silent-check probes carry for `step`.
    static func reference(step: Int) -> SilentCheckReference {
        SilentCheckReference(step: step, provider: "probe", reference: "ref_\(step)")
    }

    var description: String { rawValue }

    /// The input for a verification whose active step is `step`, and the seconds to let pass first.
    func input(step: Int) -> (WorkflowInput, wait: TimeInterval) {
        let other = (step + 1) % 3
        switch self {
        case .start: return (.start(simSwapped: nil), 0)
        case .codeIssued: return (.codeIssued(step: step, hash: [9]), 0)
        case .codeIssuedForAnotherStep: return (.codeIssued(step: other, hash: [9]), 0)
        case .delivered: return (.codeDelivery(step: step, delivered: true, reason: nil), 0)
        case .deliveryRefused: return (.codeDelivery(step: step, delivered: false, reason: nil), 0)
        case .rightCode: return (.codeSubmitted(matches: true), 0)
        case .wrongCode: return (.codeSubmitted(matches: false), 0)
        case .timerDue: return (.timerFired(step: step), 60)
        case .timerEarly: return (.timerFired(step: step), 30)
        case .timerForAnotherStep: return (.timerFired(step: other), 60)
        case .silentRejected: return (.silentFailed(step: step, failure: .rejected), 0)
        case .silentRejectedForAnotherStep: return (.silentFailed(step: other, failure: .rejected), 0)
        case .silentCheckIssued: return (.silentCheckIssued(Self.reference(step: step)), 0)
        case .silentCheckIssuedForAnotherStep: return (.silentCheckIssued(Self.reference(step: other)), 0)
        case .providerMatched: return (.providerMatched(step: step, hash: [9], simChanged: nil), 0)
        case .providerMatchedForAnotherStep: return (.providerMatched(step: other, hash: [9], simChanged: nil), 0)
        case .next: return (.next, 0)
        case .cancel: return (.cancel, 0)
        case .resend: return (.resend(on: .whatsapp), 0)
        case .approve: return (.approve, 0)
        case .eventRecorded: return (.eventRecorded, 0)
        }
    }
}

/// What an input is expected to do to a state: the whole observable result.
struct Expected: Equatable, CustomStringConvertible {
    var labels: [String] = []
    var statuses: [StepStatus]
    var status: VerificationStatus = .pending
    var currentStep: Int?
    var check: CheckResult?
    var refusal: WorkflowRefusal?
    var failedAttempts = 0

    var description: String { "\(labels) \(statuses) \(status) step \(currentStep.map(String.init) ?? "-")" }

    /// Nothing changes and nothing is decided.
    static func unchanged(_ f: MachineFixture, check: CheckResult? = nil, refusal: WorkflowRefusal? = nil) -> Expected {
        Expected(statuses: f.statuses, status: f.verification.status, currentStep: f.verification.currentStep,
                 check: check, refusal: refusal, failedAttempts: f.verification.failedAttempts)
    }

    static func observed(_ f: MachineFixture, _ decision: WorkflowDecision) -> Expected {
        Expected(labels: decision.effects.labels, statuses: f.statuses, status: f.verification.status,
                 currentStep: f.verification.currentStep, check: decision.check, refusal: decision.refusal,
                 failedAttempts: f.verification.failedAttempts)
    }
}
