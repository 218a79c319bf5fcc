import Foundation
import Synchronization
import Testing
import TacitCore
import TacitCrypto
@testable import TacitServer
import TacitTesting

/// The runner carries out a silent step wherever the workflow has one. The API only
/// accepts silent_auth first, so these drive the runner directly with a workflow the
/// machine allows: a silent step reached after a failover.
@Suite("Runner: a silent step reached later", .timeLimit(.minutes(1)))
struct RunnerSilentStepTests {
    /// Answers every check with `answer`, and remembers what it was asked.
    final class ScriptedSilent: SilentAuthProvider {
        let answer: SilentBeginResult
        private let asked = Mutex<[SilentCheckRequest]>([])
        init(_ answer: SilentBeginResult) { self.answer = answer }
        var requests: [SilentCheckRequest] { asked.withLock { $0 } }
        func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
            asked.withLock { $0.append(request) }
            return answer
        }
    }

    static let operatorHop = EventDraft("operator:coverage", channel: .silentAuth, source: .operator, note: "asked the operator")

    static func runner(_ silent: ScriptedSilent, clock: ManualClock, store: InMemoryStore, sender: RecordingSender) -> WorkflowRunner {
        WorkflowRunner(store: store, clock: clock, secrets: ServerSecrets(master: Array(repeating: 7, count: 32)),
                       codes: .fixed("123456"), sender: sender, silent: silent, simSwap: NoSimSwapChecker(),
                       timers: TimerScheduler(clock: clock), hub: EventHub(), metrics: Metrics())
    }

    /// Runs `body` with the runner's send worker carrying out its queued sends, as the application does.
    static func sending<T: Sendable>(_ runner: WorkflowRunner, _ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await SendWorker(runner: runner).run() }
            do {
                let result = try await body()
                group.cancelAll()
                return result
            } catch {
                group.cancelAll()
                throw error
            }
        }
    }

    static func draft(_ clock: ManualClock) -> Verification {
        Verification(id: "vf_later", phoneNumber: "+99012345670", options: VerificationOptions(workflow: [.sms, .silentAuth, .voice]),
                     clientTokenHash: [1], createdAt: clock.now())
    }

    @Test("a failed silent check on a later step is applied by a second transition, after the one that started it committed")
    func laterSilentFailure() async throws {
        let clock = ManualClock(), store = InMemoryStore(), sender = RecordingSender()
        let silent = ScriptedSilent(.failed(.carrierError, events: [Self.operatorHop]))
        let runner = Self.runner(silent, clock: clock, store: store, sender: sender)
        try await Self.sending(runner) {
            _ = try await runner.create(Self.draft(clock), events: [], idempotency: nil)
            #expect(silent.requests.isEmpty, "the create starts the SMS step only")
            clock.advance(by: 5)
            try await runner.transition("vf_later") { try $0.handle(.next) }
        }
        #expect(silent.requests.map(\.step) == [1])
        #expect(silent.requests.first?.expiresAt == clock.now().addingTimeInterval(60))
        let v = try #require(try await store.verification(id: "vf_later"))
        #expect(v.workflow.map(\.status) == [.failed, .failed, .active])
        #expect(v.workflow[1].reason == "carrier_error")
        #expect(sender.messages.map(\.channel) == [.sms, .voice])
        let labels = try await store.events(id: "vf_later", after: 0, limit: 100).map(\.label)
        let started = try #require(labels.firstIndex(of: "silent_auth:started"))
        #expect(Array(labels[started...].prefix(4)) == ["silent_auth:started", "operator:coverage", "silent_auth:failed", "voice:started"])
    }

    @Test("an issued check on a later step records the provider's events and hands back the check URL")
    func laterSilentIssued() async throws {
        let clock = ManualClock(), store = InMemoryStore(), sender = RecordingSender()
        let silent = ScriptedSilent(.issued(checkURL: "http://127.0.0.1/check", events: [Self.operatorHop]))
        let runner = Self.runner(silent, clock: clock, store: store, sender: sender)
        let outcome = try await Self.sending(runner) {
            _ = try await runner.create(Self.draft(clock), events: [], idempotency: nil)
            return try await runner.transition("vf_later") { try $0.handle(.next) }
        }
        #expect(outcome?.checkURL == "http://127.0.0.1/check")
        #expect(outcome?.verification.currentStep == 1)
        let labels = try await store.events(id: "vf_later", after: 0, limit: 100).map(\.label)
        #expect(labels.suffix(2) == ["silent_auth:started", "operator:coverage"])
    }
}
