import Foundation
import Testing
@testable import TacitCore

@Suite("Workflow machine")
struct WorkflowMachineTests {
    @Test("start activates the first step, arms its timer and asks the runner to start the channel")
    func startActivatesFirstStep() throws {
        var f = MachineFixture()
        let actions = try f.apply(.start(simSwapped: nil))
        #expect(f.statuses == [.active, .unused, .unused])
        #expect(f.verification.currentStep == 0)
        #expect(f.verification.deadline == MachineFixture.start.addingTimeInterval(60))
        #expect(actions.started == [.silentAuth])
        #expect(actions.contains(.scheduleTimer(at: MachineFixture.start.addingTimeInterval(60))))
        #expect(actions.labels == ["verification:started", "silent_auth:started"])
        #expect(actions.webhooks == [.channelStarted])
    }

    @Test("a second start changes nothing")
    func startTwiceIsIgnored() throws {
        var f = MachineFixture()
        try f.apply(.start(simSwapped: nil))
        let before = f.verification
        #expect(try f.apply(.start(simSwapped: nil)).isEmpty)
        #expect(f.verification == before)
    }

    @Test("the right code completes the active step and the verification, with a summary last")
    func rightCodeCompletes() throws {
        var f = MachineFixture([.sms, .voice])
        try f.apply(.start(simSwapped: nil))
        try f.apply(.codeIssued(step: 0, hash: [9]))
        var machine = WorkflowMachine(f.verification, now: f.now)
        let decision = machine.handle(.codeSubmitted(matches: true))
        #expect(decision.check == .completed)
        f.verification = machine.verification
        #expect(f.verification.status == .completed)
        #expect(f.statuses == [.completed, .unused])
        #expect(f.verification.codeHash == nil, "a code is single-use")
        #expect(decision.effects.labels.last == "verification:summary")
        #expect(decision.effects.webhooks == [.completed])
        #expect(decision.effects.contains(.cancelTimer))
    }

    @Test("a decision carries only what its own input decided: the machine keeps no effects between inputs")
    func decisionsAreSeparate() {
        let f = MachineFixture([.sms, .voice])
        var machine = WorkflowMachine(f.verification, now: f.now)
        #expect(machine.handle(.start(simSwapped: nil)).effects.labels == ["verification:started", "sms:started"])
        #expect(machine.handle(.codeIssued(step: 0, hash: [3])).effects == [.sendMessage(step: 0, channel: .sms)])
        #expect(machine.handle(.eventRecorded) == WorkflowDecision(), "a pending verification records no summary again")
        let cancelled = machine.handle(.cancel)
        #expect(cancelled.effects.labels == ["sms:cancelled", "verification:cancelled", "verification:summary"])
        #expect(machine.handle(.cancel) == WorkflowDecision(refusal: .notPending(.cancelled)),
                "a refusal decides nothing")
    }

    @Test("a resend skips the active step for a new one on the asked channel, with a fresh deadline and code slot")
    func resendStartsNewStep() throws {
        var f = MachineFixture([.sms])
        try f.apply(.start(simSwapped: nil))
        try f.apply(.codeIssued(step: 0, hash: [1]))
        #expect(f.check(false) == .wrongCode(attemptsRemaining: 4))
        f.advance(20)
        let effects = try f.apply(.resend(on: .voice))
        #expect(effects.labels == ["sms:skipped", "voice:started"])
        #expect(effects.started == [.voice] && effects.webhooks == [.channelStarted],
                "the skipped step sends no failure webhook")
        #expect(f.statuses == [.failed, .active])
        #expect(f.verification.workflow[0].endReason == .skipped)
        let deadline = MachineFixture.start.addingTimeInterval(80)
        #expect(f.verification.state == .pending(ActiveStep(index: 1, deadline: deadline)))
        #expect(f.check(false) == .wrongCode(attemptsRemaining: 3), "wrong codes entered before still count")
    }

    @Test("approve completes the active step without a code; neither it nor a resend moves a finished verification")
    func approveCompletes() throws {
        var f = MachineFixture([.sms, .voice])
        try f.apply(.start(simSwapped: nil))
        let effects = try f.apply(.approve)
        #expect(effects.labels == ["sms:completed", "verification:completed", "verification:summary"])
        #expect(effects.webhooks == [.completed] && effects.contains(.cancelTimer))
        #expect(f.statuses == [.completed, .unused] && f.verification.status == .completed)
        #expect(throws: WorkflowRefusal.notPending(.completed)) { try f.apply(.approve) }
        #expect(throws: WorkflowRefusal.notPending(.completed)) { try f.apply(.resend(on: .sms)) }
    }

    @Test("the summary is recorded again only once the verification has finished, and changes nothing else")
    func summaryAgain() throws {
        var f = MachineFixture([.sms])
        try f.apply(.start(simSwapped: nil))
        var pending = WorkflowMachine(f.verification, now: f.now)
        #expect(pending.handle(.eventRecorded).effects.isEmpty)
        try f.apply(.cancel)
        var finished = WorkflowMachine(f.verification, now: f.now)
        #expect(finished.handle(.eventRecorded).effects.labels == ["verification:summary"])
        #expect(finished.verification == f.verification)
    }

    @Test("a matching hash without an issued code for the active step never completes")
    func matchWithoutCodeFails() throws {
        var f = MachineFixture([.sms])
        try f.apply(.start(simSwapped: nil))
        #expect(f.check(true) == .wrongCode(attemptsRemaining: 4))
        #expect(f.verification.status == .pending)
    }

    @Test("five wrong codes fail the verification, and a new code never resets the count")
    func fiveWrongCodesFail() throws {
        var f = MachineFixture([.sms, .voice])
        try f.apply(.start(simSwapped: nil))
        try f.apply(.codeIssued(step: 0, hash: [1]))
        #expect(f.check(false) == .wrongCode(attemptsRemaining: 4))
        #expect(f.check(false) == .wrongCode(attemptsRemaining: 3))
        try f.apply(.next)
        try f.apply(.codeIssued(step: 1, hash: [2]))
        #expect(f.check(false) == .wrongCode(attemptsRemaining: 2))
        #expect(f.check(false) == .wrongCode(attemptsRemaining: 1))
        #expect(f.check(false) == .tooManyAttempts)
        #expect(f.verification.status == .failed)
        #expect(f.statuses == [.failed, .failed])
        #expect(f.check(true) == .notPending(.failed))
    }

    @Test("next skips to the following step and refuses on the last one")
    func nextStep() throws {
        var f = MachineFixture([.sms, .voice])
        try f.apply(.start(simSwapped: nil))
        try f.apply(.next)
        #expect(f.statuses == [.failed, .active])
        #expect(throws: WorkflowRefusal.noNextChannel) { try f.apply(.next) }
    }

    @Test("cancel ends a pending verification and refuses a finished one")
    func cancel() throws {
        var f = MachineFixture([.sms])
        try f.apply(.start(simSwapped: nil))
        let actions = try f.apply(.cancel)
        #expect(f.verification.status == .cancelled)
        #expect(actions.webhooks.last == .cancelled)
        #expect(throws: WorkflowRefusal.notPending(.cancelled)) { try f.apply(.cancel) }
        #expect(throws: WorkflowRefusal.notPending(.cancelled)) { try f.apply(.next) }
    }

    @Test("a failed delivery fails the step over; a successful one is recorded")
    func delivery() throws {
        var f = MachineFixture([.sms, .voice])
        try f.apply(.start(simSwapped: nil))
        #expect(try f.apply(.codeDelivery(step: 0, delivered: true, reason: nil)).labels == ["sms:code_sent"])
        try f.apply(.codeDelivery(step: 0, delivered: false, reason: "no_provider"))
        #expect(f.statuses == [.failed, .active])
        #expect(f.verification.workflow[0].reason == "no_provider")
    }

    @Test("a failure on the last step fails the verification rather than expiring it")
    func lastStepFailure() throws {
        var f = MachineFixture([.silentAuth])
        try f.apply(.start(simSwapped: nil))
        try f.apply(.silentFailed(step: 0, failure: .rejected))
        #expect(f.verification.status == .failed)
    }

    @Test("SIM swap: block fails at once, flag records and continues")
    func simSwap() throws {
        var blocked = MachineFixture(simSwap: SimSwapPolicy(maxAgeHours: 240, action: .block))
        let actions = try blocked.apply(.start(simSwapped: true))
        #expect(blocked.verification.status == .failed)
        #expect(actions.started.isEmpty, "nothing is sent when blocked")
        #expect(blocked.verification.risk.simSwapped == true)
        var flagged = MachineFixture(simSwap: SimSwapPolicy(maxAgeHours: 240, action: .flag))
        try flagged.apply(.start(simSwapped: true))
        #expect(flagged.verification.status == .pending)
        #expect(flagged.verification.risk.simSwapped == true)
    }

    @Test("the workflow only moves forward: every sequence of inputs keeps steps ordered")
    func forwardOnly() throws {
        let inputs: [WorkflowInput] = [.timerFired(step: 0), .timerFired(step: 1), .silentFailed(step: 0, failure: .rejected),
                                       .next, .codeIssued(step: 1, hash: [1]), .codeDelivery(step: 1, delivered: false, reason: nil),
                                       .timerFired(step: 2), .cancel]
        for seed in 0..<200 {
            var generator = SeededGenerator(seed: UInt64(seed))
            var f = MachineFixture()
            try f.apply(.start(simSwapped: nil))
            var lastStep = 0
            for _ in 0..<6 {
                f.advance(Double(Int.random(in: 0...70, using: &generator)))
                _ = try? f.apply(inputs.randomElement(using: &generator)!)
                if let step = f.verification.currentStep {
                    #expect(step >= lastStep)
                    lastStep = step
                    #expect(f.verification.workflow[..<step].allSatisfy { $0.status != .active && $0.status != .unused })
                    #expect(f.verification.workflow[(step + 1)...].allSatisfy { $0.status == .unused })
                }
            }
        }
    }
}

/// A small deterministic generator for property-style tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
