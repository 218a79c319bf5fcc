import Foundation

/// The engine's rules (docs/api.md#the-engines-rules) as a pure function: an input and the current state go in,
/// the new state and the effects to carry out come out. No clock, store or I/O, so
/// every driver (API, timer, operator, device) goes through the same guards: the
/// workflow moves forward only, and an input for a step that is no longer active
/// changes nothing. No step index is special: any step may be a silent one.
public struct WorkflowMachine {
    public internal(set) var verification: Verification
    /// What the input being handled has decided so far. `handle` hands it over whole in
    /// its decision, so the machine keeps no effects from one input to the next.
    var decided: [WorkflowEffect] = []
    let now: Date
    /// The wrong codes that end this verification (its face's, `/v1`'s by default).
    let limits: AttemptLimits

    public init(_ verification: Verification, now: Date, limits: AttemptLimits = .standard) {
        self.verification = verification
        self.now = now
        self.limits = limits
    }

    /// Applies one input: the one way into the machine. Every driver's input (an API
    /// call, a face's move, a timer, a provider's answer, a device) comes through here,
    /// and everything it decided comes back in the decision and nowhere else: the
    /// machine has no other mutator and keeps no effects for anyone to read later.
    /// Inputs that arrive late or twice change nothing and decide nothing. Only `.next`,
    /// `.cancel`, `.resend` and `.approve` can be refused; a refused input changes
    /// nothing, and its decision carries the refusal for the caller to act on.
    public mutating func handle(_ input: WorkflowInput) -> WorkflowDecision {
        var check: CheckResult?
        do throws(WorkflowRefusal) {
            switch input {
            case .start(let simSwapped): start(simSwapped: simSwapped)
            case .codeIssued(let step, let hash): issueCode(step: step, hash: hash)
            case .codeDelivery(let step, let delivered, let reason):
                deliver(step: step, delivered: delivered, reason: reason)
            case .codeSubmitted(let matches): check = submit(matches: matches)
            case .timerFired(let step): timerFired(step: step)
            case .silentFailed(let step, let failure): silentFailed(step: step, failure: failure)
            case .silentCheckIssued(let reference): recordSilentCheck(reference)
            case .providerMatched(let step, let hash, let simChanged):
                providerMatched(step: step, hash: hash, simChanged: simChanged)
            case .unreachable(let step, let reason):
                if activeStep(step) != nil { fail(step: step, status: .failed, reason: reason, label: .skipped) }
            case .next: try skip()
            case .cancel: try cancel()
            case .resend(let channel): try resend(on: channel)
            case .approve: try approve()
            case .eventRecorded: summarizeAgain()
            }
        } catch {
            // Every refusal is thrown by a guard before anything changed.
            return WorkflowDecision(refusal: error)
        }
        // Handed over, not copied: the decision takes the buffer the input filled.
        let effects = decided
        decided = []
        return WorkflowDecision(effects: effects, check: check)
    }

    private mutating func start(simSwapped: Bool?) {
        guard verification.state == .unstarted, verification.workflow.allSatisfy({ $0.status == .unused }) else {
            return
        }
        let v = verification
        emit(.started(workflow: v.workflow.map(\.channel), channelTimeout: v.channelTimeout,
                      codeLength: v.codeLength, phoneNumber: v.contact))
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

    mutating func issueCode(step: Int, hash: [UInt8]) {
        guard var active = activeStep(step) else { return }
        active.codeHash = hash
        verification.state = .pending(active)
        let channel = verification.workflow[step].channel
        if channel.sendsCode { decided.append(.sendMessage(step: step, channel: channel)) }
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

    mutating func submit(matches: Bool) -> CheckResult {
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
