import Foundation

/// Drives a `VerificationFlow` from the server: follows the live event stream,
/// re-reads the state whenever an event says the step changed, and polls only
/// when the stream can't be held. Publishes each new screen state.
public struct VerificationFlowDriver: Sendable {
    /// Runs the device's silent check for a verification whose silent step is active.
    public typealias SilentAuthRunner = @Sendable (Verification) async -> SilentAuthResult

    public let service: any PhoneVerificationService
    /// The pause between state reads when polling.
    public var pollInterval: Duration
    /// State reads in a row that may fail before the flow ends as `.unreachable`.
    public var maxPollFailures: Int
    /// When set, runs while the silent step is active; if it ends with a client
    /// error (no cellular path, carrier refused), the driver asks for the next channel.
    public var silentAuth: SilentAuthRunner?

    public init(service: any PhoneVerificationService, pollInterval: Duration = .seconds(2),
                maxPollFailures: Int = 5, silentAuth: SilentAuthRunner? = nil) {
        self.service = service
        self.pollInterval = pollInterval
        self.maxPollFailures = maxPollFailures
        self.silentAuth = silentAuth
    }

    /// Starts a verification and follows it; the stream ends at a final state.
    public func start(_ request: StartVerificationRequest) -> AsyncStream<VerificationFlow.State> {
        stream { publish in await run(request, publish: publish) }
    }

    /// Follows an already started verification; the stream ends at a final state.
    public func follow(_ verification: Verification) -> AsyncStream<VerificationFlow.State> {
        stream { publish in await run(following: verification, publish: publish) }
    }

    /// Starts and follows, calling `publish` with each new state. Returns at a
    /// final state or when the task is cancelled.
    public func run(_ request: StartVerificationRequest,
                    publish: @escaping @Sendable (VerificationFlow.State) -> Void) async {
        var flow = VerificationFlow()
        flow.begin()
        publish(flow.state)
        do {
            let verification = try await service.start(request)
            await run(following: verification, publish: publish)
        } catch {
            if Task.isCancelled { return }
            flow.fail((error as? TacitError).map { $0.status == 0 ? .unreachable : .startRejected(type: $0.type) }
                      ?? .unreachable)
            publish(flow.state)
        }
    }

    /// Follows a verification, calling `publish` with each new state.
    public func run(following verification: Verification,
                    publish: @escaping @Sendable (VerificationFlow.State) -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            if let silentAuth, verification.activeChannel == .silentAuth, verification.checkURL != nil {
                group.addTask { await runSilentAuth(silentAuth, verification) }
            }
            var follower = FlowFollower(service: service, publish: publish, pollInterval: pollInterval,
                                        maxPollFailures: maxPollFailures)
            await follower.follow(verification)
            group.cancelAll()
        }
    }

    private func runSilentAuth(_ runner: SilentAuthRunner, _ verification: Verification) async {
        guard case .clientError = await runner(verification), !Task.isCancelled else { return }
        // The server may have ended the silent step itself (a rejected SIM, a Wi-Fi
        // request): skipping then would throw away the channel it just started.
        guard let current = try? await service.state(verification.requestId),
              current.status == .pending, current.activeChannel == .silentAuth, !Task.isCancelled else { return }
        // The silent path can't work from here; move on rather than wait out the step.
        _ = try? await service.next(verification.requestId)
    }

    private func stream(
        _ body: @escaping @Sendable (@escaping @Sendable (VerificationFlow.State) -> Void) async -> Void
    ) -> AsyncStream<VerificationFlow.State> {
        AsyncStream { continuation in
            // The work lives exactly as long as its consumer: dropping the stream cancels it.
            let work = Task {
                await body { continuation.yield($0) }
                continuation.finish()
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }
}
