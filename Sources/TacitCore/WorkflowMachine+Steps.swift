import Foundation

/// How steps start and end; every transition goes through these few functions.
extension WorkflowMachine {
    /// Makes `index` the active step with a fresh deadline and no code, and asks for
    /// its channel to start: a code for a code channel, a check for a silent one.
    mutating func activate(_ index: Int) {
        let deadline = now.addingTimeInterval(TimeInterval(verification.channelTimeout))
        verification.state = .pending(ActiveStep(index: index, deadline: deadline))
        verification.workflow[index].status = .active
        verification.workflow[index].startedAt = now
        let channel = verification.workflow[index].channel
        emit(.stepStarted(channel, index: index, timeout: verification.channelTimeout))
        decided.append(.notifyWebhook(.channelStarted, channel: channel))
        decided.append(.scheduleTimer(at: deadline))
        decided.append(channel.sendsCode ? .issueCode(step: index, channel: channel)
                                         : .beginSilentCheck(step: index, expiresAt: deadline))
    }

    /// Ends a step without success, then moves on to the next step, or ends the
    /// verification when it was the last (`expired` after a timeout, else `failed`).
    mutating func fail(step index: Int, status: StepStatus, reason: EndReason, label: StepEndLabel) {
        end(step: index, status: status, reason: reason, label: label)
        let channel = verification.workflow[index].channel
        decided.append(.notifyWebhook(.channelFailed, channel: channel))
        if index + 1 < verification.workflow.count {
            activate(index + 1)
        } else {
            finish(status == .expired ? .expired : .failed, reason: reason, channel: channel)
        }
    }

    /// Closes a step that did not complete; its code, if any, is gone with it.
    mutating func end(step index: Int, status: StepStatus, reason: EndReason, label: StepEndLabel) {
        verification.workflow[index].status = status
        verification.workflow[index].endedAt = now
        verification.workflow[index].endReason = reason
        if var active = verification.state.activeStep {
            active.codeHash = nil
            verification.state = .pending(active)
        }
        let isLast = index + 1 == verification.workflow.count
        emit(.stepEnded(verification.workflow[index].channel, label: label, reason: reason, isLast: isLast))
    }

    mutating func complete(step index: Int) {
        verification.workflow[index].status = .completed
        verification.workflow[index].endedAt = now
        let channel = verification.workflow[index].channel
        emit(.stepCompleted(channel))
        finish(.completed, reason: nil, channel: channel)
    }

    /// Ends the verification. `channel` is the step the ending is about (none for a
    /// SIM-swap block or a cancel before any step), which its webhook reports.
    mutating func finish(_ outcome: VerificationOutcome, reason: EndReason?, channel: Channel?) {
        verification.state = .finished(outcome)
        verification.endedAt = now
        decided.append(.cancelTimer)
        emit(.finished(outcome, reason: reason))
        let webhook: WebhookEvent
        switch outcome {
        case .completed: webhook = .completed
        case .expired: webhook = .expired
        case .cancelled: webhook = .cancelled
        case .failed: webhook = .failed
        }
        decided.append(.notifyWebhook(webhook, channel: channel))
        emit(.summary(verification.status, workflow: verification.workflow))
    }

    mutating func emit(_ event: WorkflowEvent) {
        decided.append(.emit(event))
    }
}
