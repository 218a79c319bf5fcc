/// The following loop behind `VerificationFlowDriver`: events first, polling
/// as the fallback. Owns the flow value and publishes only changes.
struct FlowFollower {
    let service: any PhoneVerificationService
    let publish: @Sendable (VerificationFlow.State) -> Void
    let pollInterval: Duration
    let maxPollFailures: Int
    private var flow = VerificationFlow()
    private var published: VerificationFlow.State?
    private var lastSeq = 0

    init(service: any PhoneVerificationService, publish: @escaping @Sendable (VerificationFlow.State) -> Void,
         pollInterval: Duration, maxPollFailures: Int) {
        self.service = service
        self.publish = publish
        self.pollInterval = pollInterval
        self.maxPollFailures = maxPollFailures
    }

    mutating func follow(_ verification: Verification) async {
        update { $0.apply(verification) }
        let id = verification.requestId
        if flow.state.isFinal { return }
        await followEvents(id)
        if flow.state.isFinal || Task.isCancelled { return }
        await poll(id)
    }

    /// Returns when the flow is final or the stream ended or broke.
    private mutating func followEvents(_ id: String) async {
        do {
            for try await event in service.eventStream(id, after: lastSeq) {
                lastSeq = event.seq
                var needsState = false
                update { needsState = $0.apply(event: event) }
                if needsState, let verification = try? await service.state(id) {
                    update { $0.apply(verification) }
                }
                if flow.state.isFinal { return }
            }
        } catch {}
    }

    /// Reads the state every `pollInterval` until the flow is final.
    private mutating func poll(_ id: String) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                let verification = try await service.state(id)
                failures = 0
                update { $0.apply(verification) }
                if flow.state.isFinal { return }
            } catch {
                failures += 1
                if failures >= maxPollFailures {
                    return update { $0.fail(.unreachable) }
                }
            }
            do { try await Task.sleep(for: pollInterval) } catch { return }
        }
    }

    private mutating func update(_ change: (inout VerificationFlow) -> Void) {
        change(&flow)
        guard flow.state != published else { return }
        published = flow.state
        publish(flow.state)
    }
}
