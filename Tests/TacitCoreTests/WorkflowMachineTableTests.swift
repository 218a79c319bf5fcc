import Foundation
import Testing
@testable import TacitCore

/// Every state × every input, in the manner of a pool state machine's tests: each
/// case compares the whole observable result (events, step statuses, status, active
/// step, the check's answer, the refusal) with what docs/api.md#the-engines-rules says.
@Suite("Workflow machine: every state × every input")
struct WorkflowMachineTableTests {
    @Test("a pending step takes each input as the rules say", arguments: PendingState.allCases, Probe.allCases)
    func pending(state: PendingState, probe: Probe) throws {
        var f = try state.make()
        let before = f
        let (input, wait) = probe.input(step: state.step)
        f.advance(wait)
        let decision = f.decide(input)
        let expected = Self.expected(state, probe, before: before)
        #expect(Expected.observed(f, decision) == expected)
        if decision.refusal != nil || decision.effects.isEmpty, probe != .codeIssued, probe != .silentCheckIssued {
            #expect(f.verification == before.verification, "an input that decides nothing changes nothing")
        }
        if decision.refusal != nil {
            #expect(decision.effects.isEmpty && decision.check == nil, "a refusal decides nothing")
        }
        let keepsReference = probe == .silentCheckIssued && state.channel == .silentAuth
        #expect(f.verification.silentCheck == (keepsReference ? Probe.reference(step: state.step) : nil),
                "only the active silent step keeps a provider's check")
    }

    @Test("a finished verification refuses next, cancel, resend and approve, and takes nothing else",
          arguments: VerificationOutcome.allCases, Probe.allCases)
    func finished(outcome: VerificationOutcome, probe: Probe) throws {
        var f = try Self.finished(outcome)
        let before = f.verification
        let (input, wait) = probe.input(step: 0)
        f.advance(wait)
        let decision = f.decide(input)
        #expect(f.verification == before, "a finished verification never changes")
        switch probe {
        case .next, .cancel, .resend, .approve: #expect(decision.refusal == .notPending(outcome.status))
        default: #expect(decision.refusal == nil)
        }
        #expect(decision.check == (probe == .rightCode || probe == .wrongCode ? .notPending(outcome.status) : nil))
        #expect(decision.effects.labels == (probe == .eventRecorded ? ["verification:summary"] : []))
        #expect(decision.effects.filter { $0.event == nil }.isEmpty, "nothing but the summary again")
    }

    @Test("an unstarted verification starts, can be cancelled, and takes nothing else", arguments: Probe.allCases)
    func unstarted(probe: Probe) throws {
        var f = MachineFixture()
        let before = f
        let (input, wait) = probe.input(step: 0)
        f.advance(wait)
        let decision = f.decide(input)
        var expected = Expected.unchanged(before)
        switch probe {
        case .start:
            expected.labels = ["verification:started", "silent_auth:started"]
            expected.statuses = [.active, .unused, .unused]
            expected.currentStep = 0
        case .cancel:
            expected.labels = ["verification:cancelled", "verification:summary"]
            expected.status = .cancelled
        case .next, .resend, .approve: expected.refusal = .notPending(.pending)
        case .rightCode, .wrongCode: expected.check = .notPending(.pending)
        default: break
        }
        #expect(Expected.observed(f, decision) == expected)
        if probe != .start && probe != .cancel { #expect(f.verification == before.verification) }
    }

    /// A verification that ended with `outcome`, reached through the machine.
    static func finished(_ outcome: VerificationOutcome) throws -> MachineFixture {
        var f = MachineFixture([.sms])
        try f.apply(.start(simSwapped: nil))
        switch outcome {
        case .completed:
            try f.apply(.codeIssued(step: 0, hash: [1]))
            _ = f.check(true)
        case .failed: try f.apply(.codeDelivery(step: 0, delivered: false, reason: "provider_error"))
        case .expired:
            f.advance(60)
            try f.apply(.timerFired(step: 0))
        case .cancelled: try f.apply(.cancel)
        }
        return f
    }
}
