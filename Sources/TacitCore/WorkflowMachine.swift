import Foundation

/// The rules of SPEC §2 as a pure function: an input and the current state go in,
/// the new state and the actions to carry out come out. No clock, store or I/O, so
/// every driver (API, timer, operator, device) goes through the same guards: the
/// workflow moves forward only, and an input for a step that is no longer active
/// changes nothing.
public struct WorkflowMachine {
    public internal(set) var verification: Verification
    public internal(set) var actions: [WorkflowAction] = []
    let now: Date

    public init(_ verification: Verification, now: Date) {
        self.verification = verification
        self.now = now
    }

    /// Applies one input. Inputs that arrive late or twice change nothing and return no actions.
    @discardableResult
    public mutating func handle(_ input: WorkflowInput) throws(WorkflowRefusal) -> [WorkflowAction] {
        let before = actions.count
        switch input {
        case .start(let simSwapped): start(simSwapped: simSwapped)
        case .codeIssued(let step, let hash): issueCode(step: step, hash: hash)
        case .codeDelivery(let step, let delivered, let reason): deliver(step: step, delivered: delivered, reason: reason)
        case .codeSubmitted(let matches): _ = check(matches: matches)
        case .timerFired(let step): timerFired(step: step)
        case .silentFailed(let step, let failure): silentFailed(step: step, failure: failure)
        case .next: try skip()
        case .cancel: try cancel()
        }
        return Array(actions[before...])
    }

    /// Keeps `verification:summary` the last event of a finished verification when an
    /// event arrives after it (a webhook's delivery result for the final webhook): the
    /// summary is recorded again after that event. Does nothing while pending.
    public mutating func summarizeAgainIfFinished() {
        guard verification.status != .pending else { return }
        emit(Notes.summary(verification))
    }

    /// Applies a code check and says how it went, for the API's answer.
    public mutating func check(matches: Bool) -> CheckResult {
        guard verification.status == .pending, let index = verification.currentStep else {
            return .notPending(verification.status)
        }
        let channel = verification.workflow[index].channel
        if matches, verification.codeHash != nil, verification.codeStep == index {
            emit(Notes.codeAccepted(channel))
            complete(step: index)
            return .completed
        }
        verification.failedAttempts += 1
        let remaining = max(0, VerificationOptions.maxAttempts - verification.failedAttempts)
        emit(Notes.codeRejected(channel, remaining: remaining))
        guard remaining == 0 else { return .wrongCode(attemptsRemaining: remaining) }
        end(step: index, status: .failed, reason: "too_many_attempts", label: "failed")
        finish(.failed, reason: "too_many_attempts")
        return .tooManyAttempts
    }

    private mutating func start(simSwapped: Bool?) {
        guard verification.status == .pending, verification.currentStep == nil,
              verification.workflow.allSatisfy({ $0.status == .unused }) else { return }
        emit(Notes.started(verification))
        if let policy = verification.simSwap, let simSwapped {
            verification.risk.simSwapped = simSwapped
            emit(Notes.simSwap(swapped: simSwapped, policy: policy))
            if simSwapped && policy.action == .block {
                finish(.failed, reason: "sim_swapped")
                return
            }
        }
        activate(0)
    }

    private mutating func issueCode(step: Int, hash: [UInt8]) {
        guard isActive(step) else { return }
        verification.codeHash = hash
        verification.codeStep = step
    }

    private mutating func deliver(step: Int, delivered: Bool, reason: String?) {
        guard isActive(step) else { return }
        let channel = verification.workflow[step].channel
        if delivered {
            emit(Notes.codeSent(channel, length: verification.codeLength, to: verification.phoneNumber))
        } else {
            fail(step: step, status: .failed, reason: reason ?? "provider_error", label: "failed")
        }
    }

    private mutating func timerFired(step: Int) {
        guard isActive(step), let deadline = verification.deadline, deadline <= now else { return }
        emit(Notes.timerFired(verification.workflow[step].channel, seconds: verification.channelTimeout))
        fail(step: step, status: .expired, reason: "timeout", label: "timed_out")
    }

    private mutating func silentFailed(step: Int, failure: SilentFailure) {
        guard isActive(step), verification.workflow[step].channel == .silentAuth else { return }
        let label = failure == .rejected ? "rejected" : failure == .noCoverage ? "skipped" : "failed"
        fail(step: step, status: failure.stepStatus, reason: failure.rawValue, label: label)
    }

    private mutating func skip() throws(WorkflowRefusal) {
        guard verification.status == .pending, let index = verification.currentStep else {
            throw .notPending(verification.status)
        }
        guard index + 1 < verification.workflow.count else { throw .noNextChannel }
        fail(step: index, status: .failed, reason: "skipped", label: "skipped")
    }

    private mutating func cancel() throws(WorkflowRefusal) {
        guard verification.status == .pending else { throw .notPending(verification.status) }
        if let index = verification.currentStep {
            end(step: index, status: .failed, reason: "cancelled", label: "cancelled")
        }
        finish(.cancelled, reason: "cancelled")
    }

    private func isActive(_ step: Int) -> Bool {
        verification.status == .pending && verification.currentStep == step
            && verification.workflow.indices.contains(step) && verification.workflow[step].status == .active
    }
}
