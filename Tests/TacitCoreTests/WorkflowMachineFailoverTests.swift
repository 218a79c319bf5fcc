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

    @Test("a provider's check is kept only while its step is the active silent one")
    func silentCheckKeptForActiveStep() throws {
        var f = MachineFixture()
        let reference = SilentCheckReference(step: 0, provider: "truid", reference: "chk_1")
        #expect(try f.apply(.silentCheckIssued(reference)).isEmpty, "before the start no step is active")
        #expect(f.verification.silentCheck == nil)
        try f.apply(.start(simSwapped: nil))
        #expect(try f.apply(.silentCheckIssued(reference)).isEmpty, "keeping it decides nothing to carry out")
        #expect(f.verification.silentCheck == reference)
        var machine = WorkflowMachine(f.verification, now: f.now)
        #expect(machine.activeSilentCheck == reference)
        try f.apply(.silentFailed(step: 0, failure: .noCoverage))
        machine = WorkflowMachine(f.verification, now: f.now)
        #expect(machine.activeSilentCheck == nil, "the step moved on")
        let before = f.verification
        try f.apply(.silentCheckIssued(SilentCheckReference(step: 1, provider: "truid", reference: "chk_2")))
        #expect(f.verification == before, "a code step keeps no provider's check")
    }

    @Test("a provider's match completes the active silent step; one for a step no longer active changes nothing")
    func providerMatchCompletes() throws {
        var f = MachineFixture()
        try f.apply(.start(simSwapped: nil))
        let effects = try f.apply(.providerMatched(step: 0, hash: [4], simChanged: false))
        #expect(effects.labels == ["silent_auth:code_checked", "silent_auth:completed", "verification:completed",
                                   "verification:summary"])
        #expect(f.verification.status == .completed && f.verification.risk.simSwapped == false)
        #expect(f.verification.codeHash == nil, "the hash is consumed at once")
        var late = MachineFixture()
        try late.apply(.start(simSwapped: nil))
        try late.apply(.next)
        let before = late.verification
        #expect(try late.apply(.providerMatched(step: 0, hash: [4], simChanged: nil)).isEmpty)
        #expect(try late.apply(.providerMatched(step: 1, hash: [4], simChanged: nil)).isEmpty,
                "an SMS step is no silent one")
        #expect(late.verification == before)
    }

    @Test("a provider's SIM-change signal blocks or flags as the policy says",
          arguments: [SimSwapPolicy.Action.flag, .block])
    func providerSimChange(action: SimSwapPolicy.Action) throws {
        var f = MachineFixture(simSwap: SimSwapPolicy(maxAgeHours: 24, action: action))
        try f.apply(.start(simSwapped: nil))
        let effects = try f.apply(.providerMatched(step: 0, hash: [4], simChanged: true))
        #expect(f.verification.risk.simSwapped == true)
        #expect(effects.labels.first == "risk:sim_swap_checked")
        if action == .block {
            #expect(effects.labels.dropFirst() == ["silent_auth:failed", "verification:failed", "verification:summary"])
            #expect(f.verification.workflow[0].endReason == .simSwapped && f.verification.status == .failed)
            #expect(effects.contains(.notifyWebhook(.failed, channel: .silentAuth)))
        } else {
            #expect(f.verification.status == .completed)
        }
    }
}
