import Foundation

/// How steps start and end; every transition goes through these few functions.
extension WorkflowMachine {
    mutating func activate(_ index: Int) {
        let deadline = now.addingTimeInterval(TimeInterval(verification.channelTimeout))
        verification.currentStep = index
        verification.workflow[index].status = .active
        verification.workflow[index].startedAt = now
        verification.deadline = deadline
        verification.codeHash = nil
        verification.codeStep = nil
        let channel = verification.workflow[index].channel
        emit(Notes.stepStarted(channel, index: index, timeout: verification.channelTimeout))
        actions.append(.notifyWebhook(.channelStarted))
        actions.append(.scheduleTimer(at: deadline))
        actions.append(.startChannel(step: index, channel: channel))
    }

    /// Ends a step without success, then moves on to the next step, or ends the
    /// verification when it was the last (`expired` after a timeout, else `failed`).
    mutating func fail(step index: Int, status: StepStatus, reason: String, label: String) {
        end(step: index, status: status, reason: reason, label: label)
        actions.append(.notifyWebhook(.channelFailed))
        if index + 1 < verification.workflow.count {
            activate(index + 1)
        } else {
            finish(status == .expired ? .expired : .failed, reason: reason)
        }
    }

    mutating func end(step index: Int, status: StepStatus, reason: String?, label: String) {
        verification.workflow[index].status = status
        verification.workflow[index].endedAt = now
        verification.workflow[index].reason = reason
        verification.codeHash = nil
        verification.codeStep = nil
        emit(Notes.stepEnded(verification.workflow[index].channel, label: label, reason: reason, isLast: index + 1 == verification.workflow.count))
    }

    mutating func complete(step index: Int) {
        verification.workflow[index].status = .completed
        verification.workflow[index].endedAt = now
        emit(Notes.stepCompleted(verification.workflow[index].channel))
        finish(.completed, reason: nil)
    }

    mutating func finish(_ status: VerificationStatus, reason: String?) {
        verification.status = status
        verification.endedAt = now
        verification.currentStep = nil
        verification.deadline = nil
        verification.codeHash = nil
        verification.codeStep = nil
        actions.append(.cancelTimer)
        emit(Notes.finished(status, reason: reason))
        let webhook: WebhookEvent
        switch status {
        case .completed: webhook = .completed
        case .expired: webhook = .expired
        case .cancelled: webhook = .cancelled
        case .failed, .pending: webhook = .failed
        }
        actions.append(.notifyWebhook(webhook))
        emit(Notes.summary(verification))
    }

    mutating func emit(_ draft: EventDraft) {
        actions.append(.emit(draft))
    }
}
