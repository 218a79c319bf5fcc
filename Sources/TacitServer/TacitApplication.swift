import Foundation
import Synchronization
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitStore

/// The composition root: builds the store, engine and routes (with the providers' own)
/// from a configuration, and runs them as one service until its task is cancelled. No globals;
/// tests build their own.
public final class TacitApplication: Sendable {
    /// How a running application takes its requests.
    public enum Serving: Sendable {
        /// Over HTTP on the configured host and port.
        case http
        /// Only through `handle(_:)`, with no socket: the workers run as they do over HTTP.
        case inProcess
    }

    public let configuration: ServerConfiguration
    let store: any VerificationStore
    let dependencies: Dependencies
    let assembled = Mutex<Assembly?>(nil)
    let isReady = Atomic<Bool>(false)
    /// Set by `beginDrain()`: a drain begun before the workers started keeps `/readyz` at 503.
    let draining = Atomic<Bool>(false)
    let boundPort = Atomic<Int>(0)
    let started = StartupSignal<Int>()

    /// Whether `/readyz` answers 200.
    var ready: Bool { isReady.load(ordering: .relaxed) }

    public init(configuration: ServerConfiguration, store: any VerificationStore,
                dependencies: Dependencies = Dependencies()) {
        self.configuration = configuration
        self.store = store
        self.dependencies = dependencies
    }

    /// Serves over HTTP until the calling task is cancelled; see `run(serving:)`.
    public func run() async throws {
        try await run(serving: .http)
    }

    /// Migrates the store, starts listening, then re-arms pending timers and runs the timer,
    /// webhook and housekeeping workers, all as child tasks of the caller. Cancelling the
    /// caller drains: `/readyz` answers 503 at once, requests in flight finish, and this
    /// returns once every worker has stopped. An application runs once.
    public func run(serving: Serving) async throws {
        do {
            try await withTaskCancellationHandler {
                try await serve(try await assemble(), serving: serving)
            } onCancel: {
                // Runs as the cancellation arrives, before the listener sees it and turns new connections away.
                isReady.store(false, ordering: .relaxed)
            }
        } catch {
            started.fail(error)
            throw error
        }
        // Cancelled before it was ready: whoever waits for the port must not wait forever.
        started.fail(CancellationError())
    }

    /// The port the application listens on (0 in process), once it is ready: migrated,
    /// listening and its workers started. Throws the error `run` failed with before then.
    public func listening() async throws -> Int {
        try await started.value()
    }

    /// Answers one request with the same gated routes the listener uses, without a socket.
    /// Before `run` has assembled the application, and after it returned, it answers 503.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        guard let handler = assembled.withLock({ $0?.handler }) else {
            return .problem(status: 503, type: "shutting-down", title: "Service unavailable",
                            detail: "The server is not running.", headers: [("Retry-After", "1")])
        }
        return await handler(request)
    }

    /// Fires every timer that is due on the clock now and waits for them: what the
    /// scheduler's own task does when it wakes, callable by tests after moving a ManualClock.
    public func fireDueTimers() async {
        guard let assembly = assembled.withLock({ $0 }) else { return }
        let runner = assembly.engine.runner
        _ = try? await assembly.rearmed.value()
        await runner.timers.fireDue { id in await runner.timerFired(id) }
    }

    /// The port the server listens on (useful with port 0); 0 until it listens.
    public var port: Int { boundPort.load(ordering: .relaxed) }
    public var baseURL: String { configuration.baseURL(port: port) }
    /// The live event fan-out, for tests that wait for a timer's effect without polling.
    var eventHub: EventHub? { assembled.withLock { $0?.engine.hub } }
    /// The step timers, for tests that arm one the way a racing restart can.
    var timers: TimerScheduler? { assembled.withLock { $0?.engine.runner.timers } }

    /// Every webhook delivery attempt, in order (for tests and embedders watching delivery).
    public var webhookAttempts: AsyncStream<WebhookAttempt>? { assembled.withLock { $0?.engine.webhooks.attempts } }
    /// Every queued send as it ends, in order (for tests and embedders watching delivery).
    public var sendReports: AsyncStream<SendReport>? { assembled.withLock { $0?.engine.runner.sends.reports } }
}
