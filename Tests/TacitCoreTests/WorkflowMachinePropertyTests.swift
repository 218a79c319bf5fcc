import Foundation
import Testing
@testable import TacitCore

/// Seeded random sequences of every kind of input, code checks included, on random
/// workflows. Whatever the order, the engine's rules (docs/api.md#the-engines-rules) hold after every input.
@Suite("Workflow machine: forward only, whatever the inputs")
struct WorkflowMachinePropertyTests {
    static let workflows: [[Channel]] = [[.silentAuth, .sms, .voice], [.sms, .voice], [.sms, .silentAuth, .whatsapp], [.voice], [.silentAuth]]

    @Test("steps only move forward, a finished verification never changes, events stay ordered, and every refusal is the expected one",
          arguments: 0..<8)
    func forwardOnly(batch: Int) throws {
        for seed in (batch * 100)..<(batch * 100 + 100) {
            var random = SeededGenerator(seed: UInt64(seed))
            let workflow = Self.workflows.randomElement(using: &random)!
            var f = MachineFixture(workflow)
            var log = EventLog()
            log.take(try f.apply(.start(simSwapped: nil)))
            for _ in 0..<12 {
                f.advance(Double(Int.random(in: 0...45, using: &random)))
                let input = Self.randomInput(for: f.verification, using: &random)
                let before = f.verification
                let decision = f.decide(input)
                #expect(decision.refusal == Self.refusal(input, before),
                        "seed \(seed): \(input) refused as \(String(describing: decision.refusal))")
                if decision.refusal == nil {
                    log.take(decision.effects)
                    Self.checkAnswer(decision, input, before, seed: seed)
                } else {
                    #expect(f.verification == before && decision.effects.isEmpty,
                            "a refusal changes and decides nothing")
                }
                // A resend starts its step after the last: the unused steps it passed over stay unused.
                let resent = f.verification.workflow.count > workflow.count
                Self.checkInvariants(f.verification, before: before, input: input, now: f.now, resent: resent,
                                     seed: seed)
                #expect(log.isConsistent(with: f.verification), "seed \(seed): events \(log.labels)")
            }
        }
    }

    /// The refusal the rules call for, or nil when the input must be taken.
    static func refusal(_ input: WorkflowInput, _ v: Verification) -> WorkflowRefusal? {
        switch input {
        case .next:
            guard let active = v.state.activeStep else { return .notPending(v.status) }
            return active.index + 1 < v.workflow.count ? nil : .noNextChannel
        case .cancel: return v.status == .pending ? nil : .notPending(v.status)
        case .resend, .approve: return v.state.activeStep == nil ? .notPending(v.status) : nil
        default: return nil
        }
    }

    static func checkAnswer(_ decision: WorkflowDecision, _ input: WorkflowInput, _ before: Verification, seed: Int) {
        guard case .codeSubmitted(let matches) = input else {
            #expect(decision.check == nil)
            return
        }
        guard let active = before.state.activeStep else {
            #expect(decision.check == .notPending(before.status), "seed \(seed)")
            return
        }
        if matches && active.codeHash != nil {
            #expect(decision.check == .completed, "seed \(seed)")
        } else {
            let remaining = VerificationOptions.maxAttempts - before.failedAttempts - 1
            #expect(decision.check == (remaining > 0 ? .wrongCode(attemptsRemaining: remaining) : .tooManyAttempts), "seed \(seed)")
        }
    }

    static func checkInvariants(_ v: Verification, before: Verification, input: WorkflowInput, now: Date, resent: Bool,
                                seed: Int) {
        if before.status.isFinished {
            #expect(v == before, "seed \(seed): a finished verification changed on \(input)")
        }
        if case .timerFired = input, let deadline = before.deadline, deadline > now {
            #expect(v == before, "seed \(seed): a timer before its deadline changed something")
        }
        #expect(v.failedAttempts >= before.failedAttempts && v.failedAttempts <= VerificationOptions.maxAttempts)
        #expect(v.lastSeq == before.lastSeq, "only the store numbers events")
        for (old, new) in zip(before.workflow, v.workflow) where old.status != .unused && old.status != .active {
            #expect(old == new, "seed \(seed): an ended step changed")
        }
        switch v.state {
        case .pending(let active):
            #expect(active.index >= (before.currentStep ?? 0), "seed \(seed): the active step moved back")
            #expect(v.workflow[active.index].status == .active)
            #expect(v.workflow[..<active.index].allSatisfy { $0.status != .active && ($0.status != .unused || resent) })
            #expect(v.workflow[(active.index + 1)...].allSatisfy { $0.status == .unused })
        case .finished:
            #expect(v.workflow.allSatisfy { $0.status != .active }, "seed \(seed): a finished verification kept an active step")
            #expect(v.endedAt != nil)
        case .unstarted:
            #expect(v.workflow.allSatisfy { $0.status == .unused })
        }
    }

    static func randomInput(for v: Verification, using random: inout SeededGenerator) -> WorkflowInput {
        let step = Bool.random(using: &random) ? (v.currentStep ?? 0) : Int.random(in: 0..<v.workflow.count, using: &random)
        let failure = SilentFailure.allCases.randomElement(using: &random)!
        let channel = Channel.allCases.randomElement(using: &random)!
        let simChanged = [nil, false, true].randomElement(using: &random)!
        let inputs: [WorkflowInput] = [
            .start(simSwapped: nil), .codeIssued(step: step, hash: [UInt8(step)]),
            .codeDelivery(step: step, delivered: Bool.random(using: &random), reason: nil),
            .codeSubmitted(matches: Bool.random(using: &random)), .codeSubmitted(matches: false),
            .timerFired(step: step), .silentFailed(step: step, failure: failure), .next, .cancel, .eventRecorded,
            .silentCheckIssued(SilentCheckReference(step: step, provider: "p", reference: "r")),
            .providerMatched(step: step, hash: [UInt8(step)], simChanged: simChanged), .resend(on: channel), .approve,
        ]
        return inputs.randomElement(using: &random)!
    }
}

/// The labels of every event decided so far, and what they must say about the state.
struct EventLog {
    var labels: [String] = []

    mutating func take(_ effects: [WorkflowEffect]) { labels += effects.labels }

    /// One start first; each step started at most once and in workflow order; a
    /// finished verification's events end with one final status and its summary,
    /// and only summaries follow them.
    func isConsistent(with v: Verification) -> Bool {
        guard labels.first == "verification:started", labels.filter({ $0 == "verification:started" }).count == 1 else { return false }
        let started = labels.filter { $0.hasSuffix(":started") && !$0.hasPrefix("verification") }
        let expectedStarts = v.workflow.filter { $0.status != .unused }.map { "\($0.channel.rawValue):started" }
        guard started == expectedStarts else { return false }
        let finals = labels.indices.filter { ["verification:completed", "verification:failed", "verification:expired", "verification:cancelled"].contains(labels[$0]) }
        guard v.status.isFinished else { return finals.isEmpty && !labels.contains("verification:summary") }
        guard finals.count == 1, let final = finals.first, labels[final] == "verification:\(v.status.rawValue)" else { return false }
        return labels[(final + 1)...].allSatisfy { $0 == "verification:summary" } && final + 1 < labels.count
    }
}
