import Foundation
import TacitCore
import TacitCrypto
import TacitStore

/// Carries out what the workflow machine decides. Every driver (API call, timer,
/// operator callback, device) reaches a verification through `transition`, so each
/// change, its events and its webhook outbox rows commit in one store transaction,
/// then the actions run.
public final class WorkflowRunner: Sendable {
    let store: any VerificationStore
    let clock: any TacitClock
    let secrets: ServerSecrets
    let codes: CodeGenerator
    let sender: any MessageSender
    let silent: any SilentAuthProvider
    let simSwap: any SimSwapChecker
    let timers: TimerScheduler
    let hub: EventHub
    let metrics: Metrics
    /// Turns webhook intents into outbox rows inside each transaction.
    let webhooks: WebhookPlanner
    /// Told after a commit that wrote outbox rows, so delivery starts at once.
    let outboxWritten: @Sendable () -> Void

    init(store: any VerificationStore, clock: any TacitClock, secrets: ServerSecrets, codes: CodeGenerator,
         sender: any MessageSender, silent: any SilentAuthProvider, simSwap: any SimSwapChecker,
         timers: TimerScheduler, hub: EventHub, metrics: Metrics,
         webhooks: WebhookPlanner = WebhookPlanner(endpoints: []), outboxWritten: @escaping @Sendable () -> Void = {}) {
        self.store = store
        self.clock = clock
        self.secrets = secrets
        self.codes = codes
        self.sender = sender
        self.silent = silent
        self.simSwap = simSwap
        self.timers = timers
        self.hub = hub
        self.metrics = metrics
        self.webhooks = webhooks
        self.outboxWritten = outboxWritten
    }

    /// What a transition did: the body's result and the state it left.
    struct Outcome<T: Sendable>: Sendable {
        var result: T
        var verification: Verification
        /// A check URL issued while carrying out the actions (silent auth only).
        var checkURL: String?
    }

    /// Inserts a new verification, starts its first step and returns it as it then stands.
    func create(_ draft: Verification, events: [EventDraft], idempotency: IdempotencyRecord?) async throws -> Outcome<Void> {
        var swapped: Bool?
        if let policy = draft.simSwap {
            swapped = await simSwap.swapped(phoneNumber: draft.phoneNumber, maxAgeHours: policy.maxAgeHours)
        }
        let now = clock.now()
        var machine = WorkflowMachine(draft, now: now)
        _ = try? machine.handle(.start(simSwapped: swapped))
        var drafts = events + machine.actions.compactMap(\.emitted)
        let checkURL = await beginSilentFirst(&machine, drafts: &drafts)
        let codes = issueCodes(&machine)
        let outbox = webhooks.outbox(for: machine.actions, verification: machine.verification, at: now)
        let written = try await store.insert(machine.verification, events: drafts, outbox: outbox, at: now, idempotency: idempotency)
        hub.publish(written)
        if !outbox.isEmpty { outboxWritten() }
        metrics.started()
        // `perform` leaves silent starts alone: the one this workflow had is carried out above.
        let performed = await perform(machine.actions, for: machine.verification, codes: codes)
        return Outcome(result: (), verification: performed.verification, checkURL: performed.checkURL ?? checkURL)
    }

    /// A workflow that starts silently asks the provider before the verification is
    /// written, so its answer (a check URL, or a failure that moves on to the next
    /// step) commits with the verification in one transaction. Returns the check URL
    /// when one was issued.
    private func beginSilentFirst(_ machine: inout WorkflowMachine, drafts: inout [EventDraft]) async -> String? {
        guard machine.actions.contains(.startChannel(step: 0, channel: .silentAuth)) else { return nil }
        let v = machine.verification
        let request = SilentCheckRequest(verificationId: v.id, step: 0, phoneNumber: v.phoneNumber, expiresAt: v.deadline ?? clock.now())
        switch await silent.begin(request) {
        case .issued(let url, let events):
            drafts += events
            return url
        case .failed(let failure, let events):
            drafts += events
            let before = machine.actions.count
            _ = try? machine.handle(.silentFailed(step: 0, failure: failure))
            drafts += machine.actions[before...].compactMap(\.emitted)
            return nil
        }
    }

    /// Applies `body` to the verification's machine in one transaction, then carries out the actions.
    /// nil when the id is unknown.
    @discardableResult
    func transition<T: Sendable>(
        _ id: String, events extra: [EventDraft] = [],
        _ body: @escaping @Sendable (inout WorkflowMachine) throws -> T
    ) async throws -> Outcome<T>? {
        try await recordingTransition(id) { machine in (try body(&machine), extra) }
    }

    /// Like `transition`, but `body` also says which events to record before the
    /// machine's own, so a late or unknown hop can leave a timeline untouched.
    func recordingTransition<T: Sendable>(
        _ id: String, _ body: @escaping @Sendable (inout WorkflowMachine) throws -> (T, [EventDraft])
    ) async throws -> Outcome<T>? {
        let now = clock.now()
        let webhooks = self.webhooks
        let update = try await store.update(id: id, at: now) { [self] verification in
            var machine = WorkflowMachine(verification, now: now)
            let (result, extra) = try body(&machine)
            let codes = issueCodes(&machine)
            verification = machine.verification
            let outbox = webhooks.outbox(for: machine.actions, verification: machine.verification, at: now)
            return StoreChange(Applied(result: result, actions: machine.actions, codes: codes, wroteOutbox: !outbox.isEmpty),
                               events: extra + machine.actions.compactMap(\.emitted), outbox: outbox)
        }
        guard let update else { return nil }
        hub.publish(update.events)
        if update.result.wroteOutbox { outboxWritten() }
        let performed = await perform(update.result.actions, for: update.verification, codes: update.result.codes)
        return Outcome(result: update.result.result, verification: performed.verification, checkURL: performed.checkURL)
    }

    /// Checks a code: hash comparison, attempt counting and consumption in one transaction,
    /// so of many parallel checks with the right code exactly one succeeds.
    /// `prepare` runs inside the transaction on the current state: it may refuse the
    /// check (a malformed code, which then changes nothing and counts as no attempt)
    /// and gives the events to record before the machine's. nil when the id is unknown.
    func check(
        _ id: String, code: String, prepare: @escaping @Sendable (Verification) throws -> [EventDraft]
    ) async throws -> CheckResult? {
        let secrets = self.secrets
        do {
            return try await recordingTransition(id) { machine in
                let v = machine.verification
                // Throwing rolls the transaction back, so a late check leaves no event after the summary.
                guard v.status == .pending else { throw WorkflowRefusal.notPending(v.status) }
                let events = try prepare(v)
                var matches = false
                if let stored = v.codeHash, let step = v.codeStep {
                    matches = ConstantTime.equals(secrets.codeHash(code, verificationId: v.id, step: step), stored)
                }
                return (machine.check(matches: matches), events)
            }?.result
        } catch WorkflowRefusal.notPending(let status) {
            return .notPending(status)
        }
    }

    /// The scheduler's callback: the current step's timer is due. A timer whose
    /// transition fails (the store was briefly unavailable) is armed again a second later;
    /// one armed from a state read before a later change (a restart re-arming while a
    /// request moves the verification on) fires early, changes nothing, and the deadline
    /// the verification now has is armed again. Either way no pending step loses its timer.
    func timerFired(_ id: String) async {
        do {
            let outcome = try await transition(id) { machine in
                guard let step = machine.verification.currentStep else { return }
                try machine.handle(.timerFired(step: step))
            }
            if let current = outcome?.verification, current.status == .pending, let deadline = current.deadline { timers.schedule(id, at: deadline) }
        } catch {
            FileHandle.standardError.write(Data("tacit: a timer could not fire yet (\(error)); retrying in 1 s\n".utf8))
            timers.schedule(id, at: clock.now().addingTimeInterval(1))
        }
    }

    private struct Applied<T: Sendable>: Sendable {
        var result: T
        var actions: [WorkflowAction]
        var codes: [Int: String]
        var wroteOutbox: Bool
    }

    /// Makes a code for every code step the machine just started and keeps its keyed
    /// hash in the same transaction, so a code exists in the store before it is sent.
    /// Returns the codes in clear by step, for the sender only.
    func issueCodes(_ machine: inout WorkflowMachine) -> [Int: String] {
        var issued: [Int: String] = [:]
        for case .startChannel(let step, let channel) in machine.actions where channel.sendsCode {
            let code = codes.generate(machine.verification.codeLength)
            let hash = secrets.codeHash(code, verificationId: machine.verification.id, step: step)
            _ = try? machine.handle(.codeIssued(step: step, hash: hash))
            if machine.verification.codeStep == step { issued[step] = code }
        }
        return issued
    }
}

extension WorkflowAction {
    var emitted: EventDraft? {
        if case .emit(let draft) = self { return draft }
        return nil
    }
}
