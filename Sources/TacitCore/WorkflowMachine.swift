import Foundation

/// The engine's rules (docs/api.md#the-engines-rules) as a pure function: an input and the current state go in,
/// the new state and the effects to carry out come out. No clock, store or I/O, so
/// every driver (API, timer, operator, device) goes through the same guards: the
/// workflow moves forward only, and an input for a step that is no longer active
/// changes nothing. No step index is special: any step may be a silent one.
public struct WorkflowMachine {
    public internal(set) var verification: Verification
    /// Every effect decided since this machine was made, across inputs, in order: what
    /// one transaction carries out.
    public internal(set) var effects: [WorkflowEffect] = []
    let now: Date
    /// The wrong codes that end this verification (its face's, `/v1`'s by default).
    let limits: AttemptLimits

    public init(_ verification: Verification, now: Date, limits: AttemptLimits = .standard) {
        self.verification = verification
        self.now = now
        self.limits = limits
    }

    /// Applies one input. Inputs that arrive late or twice change nothing and decide
    /// nothing; only `.next` and `.cancel` are refused, and a refusal changes nothing.
    @discardableResult
    public mutating func handle(_ input: WorkflowInput) throws(WorkflowRefusal) -> WorkflowDecision {
        let before = effects.count
        var check: CheckResult?
        switch input {
        case .start(let simSwapped): start(simSwapped: simSwapped)
        case .codeIssued(let step, let hash): issueCode(step: step, hash: hash)
        case .codeDelivery(let step, let delivered, let reason): deliver(step: step, delivered: delivered, reason: reason)
        case .codeSubmitted(let matches): check = submit(matches: matches)
        case .timerFired(let step): timerFired(step: step)
        case .silentFailed(let step, let failure): silentFailed(step: step, failure: failure)
        case .next: try skip()
        case .cancel: try cancel()
        case .eventRecorded: summarizeAgain()
        }
        return WorkflowDecision(effects: Array(effects[before...]), check: check)
    }

    /// `.eventRecorded`, for callers that only record an event: keeps
    /// `verification:summary` the last event of a finished verification.
    public mutating func summarizeAgainIfFinished() {
        // Never refused: only `.next` and `.cancel` can be.
        _ = try? handle(.eventRecorded)
    }

    private mutating func start(simSwapped: Bool?) {
        guard verification.state == .unstarted, verification.workflow.allSatisfy({ $0.status == .unused }) else { return }
        let v = verification
        emit(.started(workflow: v.workflow.map(\.channel), channelTimeout: v.channelTimeout,
                      codeLength: v.codeLength, phoneNumber: v.phoneNumber))
        if let policy = verification.simSwap, let simSwapped {
            verification.risk.simSwapped = simSwapped
            emit(.simSwapChecked(swapped: simSwapped, policy: policy))
            if simSwapped && policy.action == .block {
                finish(.failed, reason: .simSwapped, channel: nil)
                return
            }
        }
        guard !verification.workflow.isEmpty else { return }
        activate(0)
    }

    private mutating func issueCode(step: Int, hash: [UInt8]) {
        guard var active = activeStep(step) else { return }
        active.codeHash = hash
        verification.state = .pending(active)
        let channel = verification.workflow[step].channel
        if channel.sendsCode { effects.append(.sendMessage(step: step, channel: channel)) }
    }

    private mutating func deliver(step: Int, delivered: Bool, reason: String?) {
        guard activeStep(step) != nil else { return }
        let channel = verification.workflow[step].channel
        if delivered {
            emit(.codeSent(channel, length: verification.codeLength, phoneNumber: verification.phoneNumber))
        } else {
            fail(step: step, status: .failed, reason: EndReason(rawValue: reason ?? "provider_error"), label: .failed)
        }
    }

    private mutating func submit(matches: Bool) -> CheckResult {
        guard let active = verification.state.activeStep else { return .notPending(verification.status) }
        let channel = verification.workflow[active.index].channel
        if matches, active.codeHash != nil {
            emit(.codeAccepted(channel))
            complete(step: active.index)
            return .completed
        }
        verification.failedAttempts += 1
        let remaining = max(0, limits.limit(on: channel) - verification.failedAttempts)
        emit(.codeRejected(channel, attemptsRemaining: remaining))
        guard remaining == 0 else { return .wrongCode(attemptsRemaining: remaining) }
        end(step: active.index, status: .failed, reason: .tooManyAttempts, label: .failed)
        finish(.failed, reason: .tooManyAttempts, channel: channel)
        return .tooManyAttempts
    }

    private mutating func timerFired(step: Int) {
        guard let active = activeStep(step), active.deadline <= now else { return }
        emit(.timerFired(verification.workflow[step].channel, seconds: verification.channelTimeout))
        fail(step: step, status: .expired, reason: .timeout, label: .timedOut)
    }

    private mutating func silentFailed(step: Int, failure: SilentFailure) {
        guard activeStep(step) != nil, verification.workflow[step].channel == .silentAuth else { return }
        fail(step: step, status: failure.stepStatus, reason: failure.endReason, label: failure.stepEndLabel)
    }

    private mutating func skip() throws(WorkflowRefusal) {
        guard let active = verification.state.activeStep else { throw .notPending(verification.status) }
        guard active.index + 1 < verification.workflow.count else { throw .noNextChannel }
        fail(step: active.index, status: .failed, reason: .skipped, label: .skipped)
    }

    private mutating func cancel() throws(WorkflowRefusal) {
        guard verification.status == .pending else { throw .notPending(verification.status) }
        var channel: Channel?
        if let active = verification.state.activeStep {
            end(step: active.index, status: .failed, reason: .cancelled, label: .cancelled)
            channel = verification.workflow[active.index].channel
        }
        finish(.cancelled, reason: .cancelled, channel: channel)
    }

    private mutating func summarizeAgain() {
        guard verification.status != .pending else { return }
        emit(.summary(verification.status, workflow: verification.workflow))
    }

    /// The active step, when it is `step`.
    private func activeStep(_ step: Int) -> ActiveStep? {
        guard let active = verification.state.activeStep, active.index == step else { return nil }
        return active
    }
}
