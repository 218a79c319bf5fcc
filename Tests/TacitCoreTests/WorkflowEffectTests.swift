import Foundation
import Testing
@testable import TacitCore

@Suite("Workflow machine: effects")
struct WorkflowEffectTests {
    @Test("a code step asks for a code to be issued, and only an issued code is sent", arguments: [Channel.sms, .voice, .whatsapp])
    func codeStepIssuesThenSends(channel: Channel) throws {
        var f = MachineFixture([channel])
        let started = try f.apply(.start(simSwapped: nil))
        #expect(started.last == .issueCode(step: 0, channel: channel))
        #expect(!started.contains(.sendMessage(step: 0, channel: channel)), "nothing is sent before its hash is kept")
        #expect(try f.apply(.codeIssued(step: 0, hash: [5])) == [.sendMessage(step: 0, channel: channel)])
        #expect(f.verification.state.activeStep?.codeHash == [5])
    }

    @Test("a code issued for the active step fills its code slot; a silent step's latch is never sent", arguments: PendingState.allCases)
    func codeSlot(state: PendingState) throws {
        var f = try state.make()
        let effects = try f.apply(.codeIssued(step: state.step, hash: [9]))
        #expect(f.verification.state == .pending(ActiveStep(index: state.step, deadline: MachineFixture.start.addingTimeInterval(60), codeHash: [9])))
        #expect(effects == (state.channel.sendsCode ? [.sendMessage(step: state.step, channel: state.channel)] : []))
    }

    @Test("any step may be silent: reaching one later begins a silent check there, with its deadline")
    func silentLaterStep() throws {
        var f = MachineFixture([.sms, .silentAuth, .voice])
        try f.apply(.start(simSwapped: nil))
        f.advance(10)
        let effects = try f.apply(.next)
        let deadline = MachineFixture.start.addingTimeInterval(70)
        #expect(effects.contains(.beginSilentCheck(step: 1, expiresAt: deadline)))
        #expect(!effects.contains { if case .issueCode = $0 { true } else { false } })
        try f.apply(.silentFailed(step: 1, failure: .deviceNotCellular))
        #expect(f.statuses == [.failed, .failed, .active])
        #expect(f.verification.workflow[1].endReason == .deviceNotCellular)
    }

    @Test("a silent result is taken only by a silent step")
    func silentResultNeedsSilentStep() throws {
        var f = MachineFixture([.sms, .voice])
        try f.apply(.start(simSwapped: nil))
        #expect(try f.apply(.silentFailed(step: 0, failure: .rejected)).isEmpty)
        #expect(f.statuses == [.active, .unused])
    }

    @Test("each webhook carries the channel of the step it is about")
    func webhookChannels() throws {
        var f = MachineFixture([.sms, .voice])
        var effects = try f.apply(.start(simSwapped: nil))
        effects += try f.apply(.next)
        effects += try f.apply(.codeIssued(step: 1, hash: [1]))
        _ = f.check(true)
        #expect(effects.compactMap { if case .notifyWebhook(let e, let c) = $0 { "\(e.rawValue) \(c?.rawValue ?? "-")" } else { nil } } == [
            "verification.channel_started sms", "verification.channel_failed sms", "verification.channel_started voice",
        ])
        var finish = MachineFixture([.voice])
        try finish.apply(.start(simSwapped: nil))
        try finish.apply(.codeIssued(step: 0, hash: [1]))
        let completed = finish.decide(.codeSubmitted(matches: true))
        #expect(completed.effects.contains(.notifyWebhook(.completed, channel: .voice)))
    }

    @Test("a SIM-swap block ends the verification with no step and a webhook with no channel")
    func blockWebhookHasNoChannel() throws {
        var f = MachineFixture(simSwap: SimSwapPolicy(maxAgeHours: 24, action: .block))
        let effects = try f.apply(.start(simSwapped: true))
        #expect(effects.contains(.notifyWebhook(.failed, channel: nil)))
        #expect(f.verification.state == .finished(.failed))
        #expect(effects.labels == ["verification:started", "risk:sim_swap_checked", "verification:failed", "verification:summary"])
    }

    @Test("the end events carry typed reasons and labels")
    func typedEndEvents() throws {
        var f = MachineFixture([.sms, .voice])
        try f.apply(.start(simSwapped: nil))
        f.advance(60)
        let events = f.decide(.timerFired(step: 0)).events
        #expect(events.contains(.stepEnded(.sms, label: .timedOut, reason: .timeout, isLast: false)))
        let refused = f.decide(.codeDelivery(step: 1, delivered: false, reason: "provider_undeliverable")).events
        #expect(refused.contains(.stepEnded(.voice, label: .failed, reason: .other("provider_undeliverable"), isLast: true)))
        #expect(refused.contains(.finished(.failed, reason: .other("provider_undeliverable"))))
        #expect(f.verification.workflow[1].reason == "provider_undeliverable")
    }
}
