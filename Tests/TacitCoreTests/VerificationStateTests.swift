import Foundation
import Testing
@testable import TacitCore

@Suite("Verification state and its stored columns")
struct VerificationStateTests {
    static let deadline = Date(timeIntervalSince1970: 1_796_000_060)
    static let states: [VerificationState] = [
        .unstarted,
        .pending(ActiveStep(index: 0, deadline: deadline)),
        .pending(ActiveStep(index: 2, deadline: deadline, codeHash: [1, 2, 3])),
    ] + VerificationOutcome.allCases.map { .finished($0) }

    @Test("every state maps to today's columns and back", arguments: states)
    func columnsRoundTrip(state: VerificationState) {
        let back = VerificationState(status: state.status, currentStep: state.currentStep, deadline: state.deadline,
                                     codeHash: state.codeHash, codeStep: state.codeStep)
        #expect(back == state)
    }

    @Test("a finished verification has no step, deadline or code in its columns", arguments: VerificationOutcome.allCases)
    func finishedColumns(outcome: VerificationOutcome) {
        let state = VerificationState.finished(outcome)
        #expect(state.status == outcome.status && state.status.isFinished)
        #expect(state.currentStep == nil && state.deadline == nil && state.codeHash == nil && state.codeStep == nil)
    }

    @Test("a code kept for another step than the current one is not the current step's code")
    func strayCodeStep() {
        let state = VerificationState(status: .pending, currentStep: 1, deadline: Self.deadline, codeHash: [1], codeStep: 0)
        #expect(state == .pending(ActiveStep(index: 1, deadline: Self.deadline)))
    }

    @Test("the readers' accessors follow the state")
    func accessors() {
        func verification(_ state: VerificationState = .unstarted) -> Verification {
            Verification(id: "vf", phoneNumber: "+99012345670", options: VerificationOptions(workflow: [.sms, .voice]),
                         clientTokenHash: [], createdAt: Date(timeIntervalSince1970: 1_796_000_000), state: state)
        }
        var v = verification()
        #expect(v.status == .pending && v.currentStep == nil && v.expiresAt == nil && v.activeChannel == nil)
        v = verification(.pending(ActiveStep(index: 0, deadline: Self.deadline, codeHash: [4])))
        #expect(v.activeChannel == .sms && v.deadline == Self.deadline && v.codeStep == 0 && v.codeHash == [4])
        #expect(v.expiresAt == Self.deadline.addingTimeInterval(60))
        v = verification(.finished(.expired))
        #expect(v.status == .expired && v.activeStep == nil && v.deadline == nil)
    }
}
