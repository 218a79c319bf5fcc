import Foundation
import Synchronization
import TacitCore
import TacitStore

/// A store held in memory, for tests of everything above the store. It keeps the
/// same contract as the real stores (the contract suite runs against it too).
public final class InMemoryStore: VerificationStore {
    struct State {
        var verifications: [String: Verification] = [:]
        /// When each finished verification finished, for retention (see `InMemoryStore+Retention.swift`).
        var finishedAt: [String: Date] = [:]
        var events: [String: [TimelineEvent]] = [:]
        var idempotency: [String: IdempotencyRecord] = [:]
        var settings: [String: [UInt8]] = [:]
        var outbox = InMemoryOutbox()
        /// The send outbox, by id (see `InMemoryStore+Sends.swift`).
        var sends: [String: QueuedSend] = [:]
        /// Insight rollup rows (see `InMemoryStore+Insights.swift`).
        var rollups = InMemoryRollups()

        /// Verification `id`, nil when unknown or another application's than `application` (see `StoreScope`).
        func verification(_ id: String, visibleTo application: String?) -> Verification? {
            guard let verification = verifications[id],
                  StoreScope.admits(verification.applicationId, to: application) else { return nil }
            return verification
        }
    }
    let state = Mutex(State())
    /// API keys (see `InMemoryStore+Security.swift`).
    let security = Mutex(SecurityState())
    /// Rate-limit counters, kept as a store without its own keeps them.
    let rateLimits = ProcessRateLimits()
    /// `--dev`'s provider state (see `InMemoryStore+DevState.swift`).
    let devState = Mutex(DevState())
    /// The conversion monitor's windows (see `InMemoryStore+Conversion.swift`).
    let conversion = ProcessConversionWindows()
    /// Applications' message templates (see `InMemoryStore+Templates.swift`).
    let messageTemplates = Mutex<[MessageTemplate]>([])
    /// Applications' test numbers (see `InMemoryStore+TestNumbers.swift`).
    let heldTestNumbers = Mutex<[TestNumber]>([])
    /// Applications' safe lists (see `InMemoryStore+SafeList.swift`).
    let heldSafeList = Mutex<[SafeListEntry]>([])
    /// The prefix counters and blocks (see `InMemoryStore+PrefixLedger.swift`).
    let heldPrefixLedger = ProcessPrefixLedger()
    /// Applications' geo permissions (see `InMemoryStore+GeoPermissions.swift`).
    let heldGeoPermissions = Mutex<[GeoPermission]>([])

    public init() {}

    public func migrate() async throws {}

    /// Nothing is at rest here, so nothing to seal.
    public func protect(with fields: any FieldProtection) {}

    public func insert(_ verification: Verification, events: [EventDraft], outbox: [OutboxMessage],
                       sends: [QueuedSend], rollups: [RollupDelta], at: Date,
                       idempotency: IdempotencyRecord?) async throws -> [TimelineEvent] {
        try state.withLock { state in
            try state.outbox.checkNew(outbox)
            try state.checkNew(sends)
            if let idempotency, state.idempotency[idempotency.key] != nil { throw StoreError.idempotencyKeyReused }
            if verification.status == .pending, state.verifications.values.contains(where: {
                $0.status == .pending && $0.contact == verification.contact
                    && $0.applicationId == verification.applicationId
            }) { throw StoreError.concurrentVerification }
            var stored = verification
            let written = stored.record(events, at: at)
            state.verifications[stored.id] = stored
            state.noteFinish(stored, at: at)
            state.events[stored.id] = written
            if let idempotency { state.idempotency[idempotency.key] = idempotency }
            state.outbox.add(outbox)
            state.apply(sends: sends, done: [])
            state.rollups.add(rollups, application: stored.applicationId)
            return written
        }
    }

    public func verification(id: String) async throws -> Verification? {
        let scope = StoreScope.application
        return state.withLock { $0.verification(id, visibleTo: scope) }
    }

    public func update<T: Sendable>(
        id: String, at: Date, _ body: @escaping @Sendable (inout Verification) throws -> StoreChange<T>
    ) async throws -> StoreUpdateResult<T>? {
        let scope = StoreScope.application
        return try state.withLock { state in
            guard var verification = state.verification(id, visibleTo: scope) else { return nil }
            let change = try body(&verification)
            try state.outbox.checkNew(change.outbox)
            try state.checkNew(change.sends)
            let written = verification.record(change.events, at: at)
            state.outbox.add(change.outbox)
            state.apply(sends: change.sends, done: change.sendsDone)
            // Under the state's lock, so the count commits with the change it counts.
            rateLimits.apply(change.rates, at: at)
            state.rollups.add(change.rollups, application: verification.applicationId)
            state.verifications[id] = verification
            state.noteFinish(verification, at: at)
            state.events[id, default: []] += written
            return StoreUpdateResult(result: change.result, verification: verification, events: written)
        }
    }

    public func events(id: String, after: Int, limit: Int) async throws -> [TimelineEvent] {
        let scope = StoreScope.application
        return state.withLock { state in
            guard state.verification(id, visibleTo: scope) != nil else { return [] }
            return Array((state.events[id] ?? []).filter { $0.seq > after }.prefix(limit))
        }
    }

    public func deadlines(dueBy cutoff: Date, limit: Int) async throws -> [Deadline] {
        state.withLock { state in
            let pending = state.verifications.values.compactMap { v in
                v.status == .pending ? v.deadline.flatMap { $0 <= cutoff ? Deadline(id: v.id, at: $0) : nil } : nil
            }
            return Array(pending.sorted { $0.at < $1.at }.prefix(limit))
        }
    }

    public func idempotencyRecord(key: String) async throws -> IdempotencyRecord? {
        state.withLock { $0.idempotency[key] }
    }

    public func sweepIdempotency(createdBefore cutoff: Date) async throws -> Int {
        state.withLock { state in
            let before = state.idempotency.count
            state.idempotency = state.idempotency.filter { $0.value.createdAt >= cutoff }
            return before - state.idempotency.count
        }
    }

    public func saveIdempotentResponse(key: String, status: Int, sealedBody: [UInt8]) async throws {
        state.withLock { state in
            state.idempotency[key]?.status = status
            state.idempotency[key]?.sealedBody = sealedBody
        }
    }

    public func setting(_ name: String) async throws -> [UInt8]? {
        state.withLock { $0.settings[name] }
    }

    public func setSettingIfAbsent(_ name: String, _ value: [UInt8]) async throws -> [UInt8] {
        state.withLock { state in
            if let existing = state.settings[name] { return existing }
            state.settings[name] = value
            return value
        }
    }

    public func settings(prefix: String) async throws -> [String: [UInt8]] {
        state.withLock { $0.settings.filter { $0.key.hasPrefix(prefix) } }
    }

    public func deleteSetting(_ name: String) async throws {
        _ = state.withLock { $0.settings.removeValue(forKey: name) }
    }

    func pendingVerifications() async throws -> [Verification] {
        state.withLock { $0.verifications.values.filter { $0.status == .pending } }
    }

    /// Runs `body` on the outbox under the store's lock.
    func withOutbox<R>(_ body: (inout InMemoryOutbox) throws -> R) rethrows -> R {
        try state.withLock { try body(&$0.outbox) }
    }

    public func pendingCount() async throws -> Int {
        state.withLock { $0.verifications.values.filter { $0.status == .pending }.count }
    }
}
