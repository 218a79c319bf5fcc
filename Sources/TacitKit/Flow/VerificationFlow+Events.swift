extension VerificationFlow {
    /// Maps a timeline event to the screen where the event alone says enough
    /// (a final `verification:*` event, a channel's `started`).
    ///
    /// - Returns: true when the event means the active step may have changed
    ///   (a step ended, a timer fired), so the caller should re-read the state:
    ///   an event alone doesn't say which step is next.
    @discardableResult
    public mutating func apply(event: TimelineEvent) -> Bool {
        guard !state.isFinal, requestId == nil || requestId == event.requestId else { return false }
        requestId = event.requestId
        if event.labelChannel == "verification" { return applyFinal(event) }
        if event.labelChannel == "timer" { return true }
        guard let channel = Channel(rawValue: String(event.labelChannel)) else { return false }
        switch event.labelEvent {
        case "started":
            let known = workflow.indices.first { $0 >= stepIndex && workflow[$0] == channel }
            guard let index = known ?? (workflow.isEmpty ? stepIndex : nil) else { return true }
            stepIndex = index
            state = Self.screen(for: channel, requestId: event.requestId)
            return false
        case "failed", "expired", "rejected", "completed", "timed_out":
            return true
        default:
            return false
        }
    }

    private mutating func applyFinal(_ event: TimelineEvent) -> Bool {
        switch event.labelEvent {
        case "completed": state = .verified
        case "failed": state = .failed(reason: .verificationFailed)
        case "expired": state = .failed(reason: .expired)
        case "cancelled": state = .failed(reason: .cancelled)
        case "summary": return true
        default: break
        }
        return false
    }
}
