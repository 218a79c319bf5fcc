import Foundation
@testable import TacitCore

extension WorkflowMachineTableTests {
    /// The rules, case by case, for a pending step.
    static func expected(_ state: PendingState, _ probe: Probe, before f: MachineFixture) -> Expected {
        let step = state.step, channel = state.channel
        var e = Expected.unchanged(f)
        switch probe {
        case .start, .codeIssuedForAnotherStep, .timerEarly, .timerForAnotherStep, .silentRejectedForAnotherStep,
             .silentCheckIssuedForAnotherStep, .providerMatchedForAnotherStep, .eventRecorded:
            break
        case .silentCheckIssued:
            break // only the silent step's check reference changes; checked by the test itself
        case .codeIssued:
            break // only the code slot changes; checked by its own tests
        case .delivered:
            e.labels = ["\(channel.rawValue):code_sent"]
        case .deliveryRefused:
            e = failOver(f, state, label: "failed", status: .failed, finished: .failed)
        case .rightCode where state.hasCode:
            e = completed(f, state)
            e.labels.insert("\(channel.rawValue):code_checked", at: 0)
            e.check = .completed
        case .rightCode, .wrongCode:
            e.labels = ["\(channel.rawValue):code_checked"]
            e.check = .wrongCode(attemptsRemaining: 4)
            e.failedAttempts = 1
        case .timerDue:
            e = failOver(f, state, label: "timed_out", status: .expired, finished: .expired)
            e.labels.insert("timer:fired", at: 0)
        case .silentRejected:
            if channel == .silentAuth { e = failOver(f, state, label: "rejected", status: .rejected, finished: .failed) }
        case .providerMatched:
            // A match completes a silent step only, as its code would, with no check to answer.
            if channel == .silentAuth {
                e = completed(f, state)
                e.labels.insert("silent_auth:code_checked", at: 0)
            }
        case .approve:
            e = completed(f, state)
        case .next:
            if state.isLast { e.refusal = .noNextChannel } else { e = failOver(f, state, label: "skipped", status: .failed, finished: .failed) }
        case .cancel:
            e.labels = ["\(channel.rawValue):cancelled", "verification:cancelled", "verification:summary"]
            e.statuses[step] = .failed
            e.status = .cancelled
            e.currentStep = nil
        case .resend:
            // The active step is skipped and a new one on the asked channel starts after the last.
            e.labels = ["\(channel.rawValue):skipped", "whatsapp:started"]
            e.statuses[step] = .failed
            e.statuses.append(.active)
            e.currentStep = f.statuses.count
        }
        return e
    }

    /// The active step completes, and the verification with it.
    private static func completed(_ f: MachineFixture, _ state: PendingState) -> Expected {
        var e = Expected.unchanged(f)
        e.labels = ["\(state.channel.rawValue):completed", "verification:completed", "verification:summary"]
        e.statuses[state.step] = .completed
        e.status = .completed
        e.currentStep = nil
        return e
    }

    /// The active step ends with `label`; the next one starts, or the verification ends.
    private static func failOver(_ f: MachineFixture, _ state: PendingState, label: String, status: StepStatus,
                                 finished: VerificationStatus) -> Expected {
        var e = Expected.unchanged(f)
        e.statuses[state.step] = status
        e.labels = ["\(state.channel.rawValue):\(label)"]
        if state.isLast {
            e.labels += ["verification:\(finished.rawValue)", "verification:summary"]
            e.status = finished
            e.currentStep = nil
        } else {
            let next = f.verification.workflow[state.step + 1].channel
            e.labels.append("\(next.rawValue):started")
            e.statuses[state.step + 1] = .active
            e.currentStep = state.step + 1
        }
        return e
    }
}
