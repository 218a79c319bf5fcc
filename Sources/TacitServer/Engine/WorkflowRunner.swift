import Foundation
import TacitCore
import TacitCrypto
import TacitStore

/// Carries out what the workflow machine decides. Every driver (API call, timer,
/// operator callback, device) reaches a verification through `transition`, so each
/// change, its events and its webhook outbox rows commit in one store transaction,
/// then the effects are carried out: only those the machine's decisions returned,
/// which a `Turn` keeps.
public final class WorkflowRunner: Sendable {
    let store: any VerificationStore
    public let clock: any TacitClock
    public let secrets: ServerSecrets
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
    /// Queued code messages: sealing them, waking the send worker, waiting for its answer.
    let sends: SendOutbox
    /// The faces served, for the rules of the verifications they start.
    let faces: FaceDirectory
    /// Prices of sends whose provider reports none (`TACIT_PRICES`).
    let prices: PriceTable
    /// Where the fraud rules the runner applies (geo permissions) count, log and notify.
    let fraud: FraudDecisions?
    /// The parts of `store` a start and a send read, when it has them: cast once here, since a
    /// cast to a protocol looks the conformance up in the runtime's tables each time.
    public let applicationStore: (any ApplicationStore)?
    let templateStore: (any TemplateStore)?
    let geoPermissionStore: (any GeoPermissionStore)?
    let testNumberStore: (any TestNumberStore)?

    init(store: any VerificationStore, clock: any TacitClock, secrets: ServerSecrets, codes: CodeGenerator,
         sender: any MessageSender, silent: any SilentAuthProvider, simSwap: any SimSwapChecker,
         timers: TimerScheduler, hub: EventHub, metrics: Metrics,
         webhooks: WebhookPlanner = WebhookPlanner(endpoints: []), outboxWritten: @escaping @Sendable () -> Void = {},
         sends: SendOutbox? = nil, faces: FaceDirectory = FaceDirectory([]), prices: PriceTable = PriceTable(),
         fraud: FraudDecisions? = nil) {
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
        self.sends = sends
            ?? SendOutbox(fields: secrets.fieldProtection, waitBound: ServerConfiguration.defaultSendWait)
        self.faces = faces
        self.prices = prices
        self.fraud = fraud
        applicationStore = store as? any ApplicationStore
        templateStore = store as? any TemplateStore
        geoPermissionStore = store as? any GeoPermissionStore
        testNumberStore = store as? any TestNumberStore
    }

    /// What a transition did: the body's result and the state it left.
    public struct Outcome<T: Sendable>: Sendable {
        public var result: T
        public var verification: Verification
        /// A check URL issued while carrying out the effects (silent auth only).
        public var checkURL: String?
    }

    /// Inserts a new verification, starts its first step and returns it as it then stands.
    public func create(_ draft: Verification, events: [EventDraft],
                       idempotency: IdempotencyRecord?) async throws -> Outcome<Void> {
        var (draft, events) = (draft, events)
        // Where the number is, once: insights group by it and the locale may follow it.
        NumberPlace.locate(&draft)
        Self.chooseLocale(&draft, noting: &events)
        let monitored = try await applyFraudRules(&draft, noting: &events)
        var swapped: Bool?
        // A verification of an address alone has no SIM to ask about.
        if let policy = draft.simSwap, !draft.phoneNumber.isEmpty {
            swapped = await simSwap.swapped(phoneNumber: draft.phoneNumber, maxAgeHours: policy.maxAgeHours)
        }
        let now = clock.now()
        var turn = Turn(draft, now: now, limits: faces.rules(for: draft.face).attempts)
        var transcript = Transcript(events)
        // A new verification is never refused its start; were it, the create would fail, not store it unstarted.
        try turn.handle(.start(simSwapped: swapped))
        try skipSilentTestStep(&turn)
        try skipGeoRefusedSteps(&turn)
        var notes: [SendNote] = []
        let checkURL = try await beginSilentChecks(&turn, transcript: &transcript, notes: &notes)
        let codes = try issueCodes(&turn)
        transcript.catchUp(turn)
        var created = turn.verification
        for note in notes { created.keep(note, prices: prices, at: now) }
        let outbox = webhooks.outbox(for: turn.effects, verification: created, at: now)
        let queued = try queuedSends(turn.effects, codes: codes, verificationId: draft.id, at: now)
        // Fixed before the worker is woken, so the wait's bound counts from the commit at the latest.
        let sendDeadline = clock.now().addingTimeInterval(sends.waitBound)
        let rollups = InsightTally.deltas(from: nil, to: created, events: transcript.drafts, at: now)
        let written = try await store.insert(created, events: transcript.drafts, outbox: outbox,
                                             sends: queued, rollups: rollups, at: now, idempotency: idempotency)
        hub.publish(written)
        if !outbox.isEmpty { outboxWritten() }
        sends.hand(queued, verification: created)
        metrics.started()
        noteMonitored(monitored)
        // The silent checks were begun above, before the insert.
        let after = turn.effects.filter { !$0.isSilentBegin }
        let performed = await perform(after, for: created, sendDeadline: sendDeadline)
        return Outcome(result: (), verification: performed.verification, checkURL: performed.checkURL ?? checkURL)
    }

    /// Applies `body` to a turn of the verification's machine in one transaction, then carries out
    /// the effects its decisions returned. A refusal `body` lets through rolls the transaction back
    /// and reaches the caller. nil when the id is unknown.
    @discardableResult
    public func transition<T: Sendable>(
        _ id: String, events extra: [EventDraft] = [], sendsDone: [String] = [], notes: [SendNote] = [],
        composed: ComposedMessage? = nil, _ body: @escaping @Sendable (inout Turn) throws -> T
    ) async throws -> Outcome<T>? {
        try await recordingTransition(id, sendsDone: sendsDone, notes: notes, composed: composed) { turn in
            (try body(&turn), extra)
        }
    }

    /// Like `transition`, but `body` also says which events to record before the
    /// machine's own, so a late or unknown hop can leave a timeline untouched. `sendsDone`
    /// names the send rows whose answer this change applies: they are deleted with it.
    /// `rates` gives the counters the change moves, from its result, in the same transaction;
    /// `notes` what it learnt of its sends. The insight rollups it moves are worked out from
    /// the verification before and after it and the events it records (`InsightTally`).
    /// `composed` is the message a delivery this change applies carried, for its `code_sent` event.
    func recordingTransition<T: Sendable>(
        _ id: String, sendsDone: [String] = [], notes: [SendNote] = [], composed: ComposedMessage? = nil,
        rates: @escaping @Sendable (T) -> [RateChange] = { _ in [] },
        _ body: @escaping @Sendable (inout Turn) throws -> (T, [EventDraft])
    ) async throws -> Outcome<T>? {
        let now = clock.now()
        let sendDeadline = now.addingTimeInterval(sends.waitBound)
        let webhooks = self.webhooks
        let update = try await store.update(id: id, at: now) { [self] verification in
            let before = verification
            var turn = Turn(verification, now: now, limits: faces.rules(for: verification.face).attempts)
            let (result, extra) = try body(&turn)
            let codes = try issueCodes(&turn)
            verification = turn.verification
            for note in notes { verification.keep(note, prices: prices, at: now) }
            var transcript = Transcript(extra, composed: composed)
            transcript.catchUp(turn)
            let rollups = InsightTally.deltas(from: before, to: verification, events: transcript.drafts, at: now)
            let outbox = webhooks.outbox(for: turn.effects, verification: turn.verification, at: now)
            let queued = try queuedSends(turn.effects, codes: codes, verificationId: id, at: now)
            let applied = Applied(result: result, effects: turn.effects, wroteOutbox: !outbox.isEmpty, queued: queued)
            return StoreChange(applied, events: transcript.drafts, outbox: outbox, sends: queued, sendsDone: sendsDone,
                               rates: rates(result), rollups: rollups)
        }
        guard let update else { return nil }
        hub.publish(update.events)
        if update.result.wroteOutbox { outboxWritten() }
        sends.hand(update.result.queued, verification: update.verification)
        let performed = await perform(update.result.effects, for: update.verification, sendDeadline: sendDeadline)
        return Outcome(result: update.result.result, verification: performed.verification, checkURL: performed.checkURL)
    }

    /// Checks a code: hash comparison, attempt counting and consumption in one transaction,
    /// so of many parallel checks with the right code exactly one succeeds.
    /// `prepare` runs inside the transaction on the current state: it may refuse the
    /// check (a malformed code, which then changes nothing and counts as no attempt)
    /// and gives the events to record before the machine's. nil when the id is unknown.
    /// The failed-check guard's count (`FailedCheckTally`) commits in the same transaction.
    public func check(
        _ id: String, code: String, prepare: @escaping @Sendable (Verification) throws -> [EventDraft]
    ) async throws -> CheckResult? {
        try await checkReturningState(id, code: code, prepare: prepare)?.result
    }

    /// `check`, with the verification as the check left it, for a face whose answer shows
    /// it; nil beside a `.notPending` result, which changed nothing.
    public func checkReturningState(
        _ id: String, code: String, prepare: @escaping @Sendable (Verification) throws -> [EventDraft]
    ) async throws -> (result: CheckResult, verification: Verification?)? {
        let secrets = self.secrets
        let tally = FailedCheckTally.current
        do {
            guard let outcome = try await recordingTransition(id, rates: { tally?.changes(for: $0) ?? [] }, { turn in
                let v = turn.verification
                // Throwing rolls the transaction back, so a late check leaves no event after the summary.
                guard v.status == .pending else { throw WorkflowRefusal.notPending(v.status) }
                // A check that ends at its provider is judged by the provider, not by a hash here.
                if let check = turn.activeSilentCheck { throw CompletesAtProvider(check: check) }
                let events = try prepare(v)
                var matches = false
                if let active = v.state.activeStep, let stored = active.codeHash {
                    matches = try secrets.codeMatches(stored, code: code, verificationId: v.id, step: active.index)
                }
                // `.codeSubmitted` is never refused: the check's answer, `.notPending` too, is in the decision.
                let decision = try turn.handle(.codeSubmitted(matches: matches))
                return (decision.check ?? .notPending(v.status), events)
            }) else { return nil }
            tally?.markCommitted()
            return (outcome.result, outcome.verification)
        } catch WorkflowRefusal.notPending(let status) {
            return (.notPending(status), nil)
        }
    }

    /// The scheduler's callback: the current step's timer is due. A timer whose
    /// transition fails (the store was briefly unavailable) is armed again a second later;
    /// one armed from a state read before a later change (a restart re-arming while a
    /// request moves the verification on) fires early, changes nothing, and the deadline
    /// the verification now has is armed again. Either way no pending step loses its timer.
    func timerFired(_ id: String) async {
        do {
            let outcome = try await transition(id) { turn in
                guard let step = turn.verification.currentStep else { return }
                try turn.handle(.timerFired(step: step))
            }
            if let current = outcome?.verification, current.status == .pending, let deadline = current.deadline {
                timers.schedule(id, at: deadline)
            }
        } catch {
            FileHandle.standardError.write(Data("tacit: a timer could not fire yet (\(error)); retrying in 1 s\n".utf8))
            timers.schedule(id, at: clock.now().addingTimeInterval(1))
        }
    }

    /// Every start's locale, whichever API made it: the one it asked for, else its number's
    /// region's, else the default; what was chosen and why goes on the start's first event.
    static func chooseLocale(_ draft: inout Verification, noting events: inout [EventDraft]) {
        let requested = draft.locale.isEmpty ? nil : draft.locale
        let choice = LocaleCatalog.builtIn.choose(requested: requested, region: draft.region)
        draft.locale = choice.tag.lowercased()
        draft.localeSource = choice.source
        guard !events.isEmpty else { return }
        events[0].data["locale"] = .text(draft.locale)
        events[0].data["locale_source"] = .text(choice.source)
    }

    private struct Applied<T: Sendable>: Sendable {
        var result: T
        var effects: [WorkflowEffect]
        var wroteOutbox: Bool
        /// The send rows the change wrote, handed to the send worker after the commit.
        var queued: [QueuedSend]
    }

    /// Makes a code for every code step the turn started and keeps its keyed hash
    /// in the same transaction, so a code exists in the store before it is sent.
    /// Returns the codes in clear by step, to be sealed into their send rows only (`.sendMessage`):
    /// a test number's fixed code is not among them, since nothing is sent for it. A step its
    /// line can't take (an SMS to a fixed line) or whose channel the application's geo permissions
    /// refused ends as skipped instead, and the next one starts.
    func issueCodes(_ turn: inout Turn) throws -> [Int: String] {
        var issued: [Int: String] = [:]
        try skipGeoRefusedSteps(&turn)
        // By index: the turn's effects grow as codes are issued and steps skipped, and are never
        // copied to be read.
        var index = 0
        while index < turn.effects.count {
            defer { index += 1 }
            guard case .issueCode(let step, let channel) = turn.effects[index] else { continue }
            // Neither input is ever refused; were one, the transaction would roll back with the refusal.
            if let reason = LineTypeRules.unreachable(channel, lineType: turn.verification.lineType)
                ?? GeoRules.unreachable(channel, in: turn.verification) {
                try turn.handle(.unreachable(step: step, reason: reason))
                continue
            }
            let (code, isTest) = try code(for: turn.verification)
            let hash = try secrets.codeHash(code, verificationId: turn.verification.id, step: step)
            try turn.handle(.codeIssued(step: step, hash: hash))
            if !isTest { issued[step] = code }
        }
        return issued
    }
}
