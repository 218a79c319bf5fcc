import Foundation
import Testing
@testable import TacitCore

@Suite("Workflow machine: timers and silent failures")
struct WorkflowMachineFailoverTests {
    @Test("a timeout fails over to the next step; the last step's timeout expires the verification")
    func timeoutsCascade() throws {
        var f = MachineFixture([.silentAuth, .sms, .voice])
        try f.apply(.start(simSwapped: nil))
        f.advance(60)
        let first = try f.apply(.timerFired(step: 0))
        #expect(first.labels.prefix(2) == ["timer:fired", "silent_auth:timed_out"])
        #expect(f.statuses == [.expired, .active, .unused])
        f.advance(60)
        try f.apply(.timerFired(step: 1))
        #expect(f.statuses == [.expired, .expired, .active])
        f.advance(60)
        let last = try f.apply(.timerFired(step: 2))
        #expect(f.verification.status == .expired)
        #expect(f.statuses == [.expired, .expired, .expired])
        #expect(last.webhooks.last == .expired)
        #expect(last.labels.last == "verification:summary")
    }

    @Test("a timer that fires early, late for another step, or twice changes nothing")
    func staleTimersIgnored() throws {
        var f = MachineFixture([.sms, .voice])
        try f.apply(.start(simSwapped: nil))
        f.advance(30)
        #expect(try f.apply(.timerFired(step: 0)).isEmpty, "before the deadline")
        f.advance(30)
        try f.apply(.timerFired(step: 0))
        #expect(try f.apply(.timerFired(step: 0)).isEmpty, "the same step again")
        #expect(f.statuses == [.expired, .active])
    }

    @Test("silent failures record their reason and fall back", arguments: SilentFailure.allCases)
    func silentFailuresFallBack(failure: SilentFailure) throws {
        var f = MachineFixture()
        try f.apply(.start(simSwapped: nil))
        try f.apply(.silentFailed(step: 0, failure: failure))
        #expect(f.verification.workflow[0].status == (failure == .rejected ? .rejected : .failed))
        #expect(f.verification.workflow[0].reason == failure.rawValue)
        #expect(f.verification.currentStep == 1)
        #expect(f.statuses[1] == .active)
    }

    @Test("a silent result for a step that is no longer active changes nothing")
    func lateSilentResultIgnored() throws {
        var f = MachineFixture()
        try f.apply(.start(simSwapped: nil))
        try f.apply(.next)
        let before = f.verification
        #expect(try f.apply(.silentFailed(step: 0, failure: .rejected)).isEmpty)
        #expect(try f.apply(.codeIssued(step: 0, hash: [1])).isEmpty)
        #expect(f.verification == before)
    }
}
