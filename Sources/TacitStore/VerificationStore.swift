import Foundation
import TacitCore

/// Where verifications, their timelines and their settings live. Every method is one
/// transaction. Nothing here assumes SQLite: a PostgreSQL store implements the same
/// contract with row locks where SQLite has its single writer.
public protocol VerificationStore: OutboxStore, SendOutboxStore, RetentionStore, InsightStore {
    /// Creates tables or brings them up to date.
    func migrate() async throws

    /// How to seal personal fields; set once after `migrate`, before any verification
    /// is read or written (the keys come from the key ring, outside the store).
    func protect(with fields: any FieldProtection)

    /// Inserts a new verification with its first events, and the idempotency record
    /// when given. Throws `StoreError.concurrentVerification` when another pending
    /// verification holds the same number, `StoreError.idempotencyKeyReused` when
    /// the key is already taken. `outbox` and `sends` rows, and the insight `rollups` the
    /// create counts, commit in the same transaction.
    func insert(_ verification: Verification, events: [EventDraft], outbox: [OutboxMessage], sends: [QueuedSend],
                rollups: [RollupDelta], at: Date, idempotency: IdempotencyRecord?) async throws -> [TimelineEvent]

    /// The stored verification, nil when the id is unknown or, inside a `StoreScope`,
    /// another application's: both through the same read of the row, never a cache.
    func verification(id: String) async throws -> Verification?

    /// The verification as this store last read or wrote it, while it still keeps that
    /// state in memory, else as stored. Inside a `StoreScope`, a kept state of another
    /// application's is passed over for the stored read, which finds nothing, as it does
    /// for an unknown id. It may be out of date (changed through another
    /// instance, or by an update racing this call), so use it only to decide what an
    /// `update` then checks again on the stored row: a check's guard reads the number
    /// it counts wrong codes for, and the check itself runs on the row.
    func recentVerification(id: String) async throws -> Verification?

    /// Reads the verification, lets `body` change it, and writes the change and the
    /// events and outbox rows `body` returns, all in one transaction. nil when the id is
    /// unknown or, inside a `StoreScope`, another application's (`body` never sees it).
    /// The write happens only if the verification is still in the state `body` saw; a
    /// store may run `body` again on a newer state, so `body` must not act outside the
    /// change it returns. When `body` throws, nothing is written.
    func update<T: Sendable>(
        id: String, at: Date, _ body: @escaping @Sendable (inout Verification) throws -> StoreChange<T>
    ) async throws -> StoreUpdateResult<T>?

    /// Timeline events with `seq` greater than `after`, oldest first; none, inside a
    /// `StoreScope`, of another application's verification.
    func events(id: String, after: Int, limit: Int) async throws -> [TimelineEvent]

    /// Pending verifications' timer deadlines due by `cutoff`, soonest first, read off the
    /// deadline index: the poller that arms other instances' timers asks every few seconds
    /// for the next few seconds' worth, and pays for those, not for every pending one.
    func deadlines(dueBy cutoff: Date, limit: Int) async throws -> [Deadline]

    func idempotencyRecord(key: String) async throws -> IdempotencyRecord?
    /// Deletes idempotency records created before `cutoff`; returns how many. Their keys
    /// may then be used again.
    func sweepIdempotency(createdBefore cutoff: Date) async throws -> Int
    /// Keeps the response of the request that inserted the record, for repeats.
    func saveIdempotentResponse(key: String, status: Int, sealedBody: [UInt8]) async throws

    /// A named server setting (for example the code-hashing secret), nil when absent.
    func setting(_ name: String) async throws -> [UInt8]?
    /// Stores `value` unless the setting exists already; returns what is stored, so
    /// several instances starting at once agree on one value.
    func setSettingIfAbsent(_ name: String, _ value: [UInt8]) async throws -> [UInt8]
    /// Every setting whose name starts with `prefix` (the key ring's fingerprints), by name.
    func settings(prefix: String) async throws -> [String: [UInt8]]
    /// Removes a setting; nothing happens when it is absent.
    func deleteSetting(_ name: String) async throws

    /// How many verifications are pending (a gauge for /metrics).
    func pendingCount() async throws -> Int
}

extension VerificationStore {
    /// Every pending deadline, soonest first, up to `limit` (the timers armed at start-up).
    public func deadlines(limit: Int) async throws -> [Deadline] {
        try await deadlines(dueBy: .distantFuture, limit: limit)
    }

    /// A store that keeps nothing in memory reads the stored verification.
    public func recentVerification(id: String) async throws -> Verification? {
        try await verification(id: id)
    }

    /// Inserts counting nothing for insights.
    public func insert(_ verification: Verification, events: [EventDraft], outbox: [OutboxMessage],
                       sends: [QueuedSend], at: Date, idempotency: IdempotencyRecord?) async throws -> [TimelineEvent] {
        try await insert(verification, events: events, outbox: outbox, sends: sends, rollups: [], at: at,
                         idempotency: idempotency)
    }

    /// Inserts without webhooks or sends owed.
    public func insert(_ verification: Verification, events: [EventDraft], at: Date,
                       idempotency: IdempotencyRecord?) async throws -> [TimelineEvent] {
        try await insert(verification, events: events, outbox: [], sends: [], at: at, idempotency: idempotency)
    }

    /// Inserts without sends owed.
    public func insert(_ verification: Verification, events: [EventDraft], outbox: [OutboxMessage], at: Date,
                       idempotency: IdempotencyRecord?) async throws -> [TimelineEvent] {
        try await insert(verification, events: events, outbox: outbox, sends: [], at: at, idempotency: idempotency)
    }
}

/// What an update writes besides the verification.
public struct StoreChange<T: Sendable>: Sendable {
    public var result: T
    public var events: [EventDraft]
    /// Webhook deliveries owed for this change, committed with it.
    public var outbox: [OutboxMessage]
    /// Code messages owed for this change (a step it started), committed with it.
    public var sends: [QueuedSend]
    /// Send rows whose answer this change applies: deleted with it.
    public var sendsDone: [String]
    /// Rate-limit counters the change moves (a check's wrong code), in the same transaction.
    public var rates: [RateChange]
    /// Insight rollup rows the change moves (`InsightTally`), in the same transaction.
    public var rollups: [RollupDelta]
    public init(_ result: T, events: [EventDraft] = [], outbox: [OutboxMessage] = [], sends: [QueuedSend] = [],
                sendsDone: [String] = [], rates: [RateChange] = [], rollups: [RollupDelta] = []) {
        self.rollups = rollups
        self.result = result
        self.events = events
        self.outbox = outbox
        self.sends = sends
        self.sendsDone = sendsDone
        self.rates = rates
    }
}

public struct StoreUpdateResult<T: Sendable>: Sendable {
    public var result: T
    public var verification: Verification
    public var events: [TimelineEvent]
    public init(result: T, verification: Verification, events: [TimelineEvent]) {
        self.result = result
        self.verification = verification
        self.events = events
    }
}

/// A pending verification's timer.
public struct Deadline: Sendable, Equatable {
    public var id: String
    public var at: Date
    public init(id: String, at: Date) {
        self.id = id
        self.at = at
    }
}

/// The first response to a request made with an `Idempotency-Key`.
public struct IdempotencyRecord: Sendable, Equatable {
    /// A keyed hash of the caller's key, so the key itself is not stored.
    public var key: String
    /// SHA-256 of the request body, to tell a true repeat from a reused key.
    public var requestHash: [UInt8]
    /// 0 while the first request is still being answered.
    public var status: Int
    /// The response body, sealed: it may hold a client token.
    public var sealedBody: [UInt8]
    public var createdAt: Date
    /// The application whose request made it; the key's hash is bound to it too.
    public var applicationId: String
    public init(key: String, requestHash: [UInt8], status: Int, sealedBody: [UInt8], createdAt: Date,
                applicationId: String = Verification.defaultApplication) {
        self.applicationId = applicationId
        self.key = key
        self.requestHash = requestHash
        self.status = status
        self.sealedBody = sealedBody
        self.createdAt = createdAt
    }
}

/// Store failures with a stable code. Descriptions never carry stored values.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: String
    public var message: String
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
    public static let concurrentVerification = StoreError(code: "concurrent_verification",
                                                          message: "another verification is pending for this number")
    public static let idempotencyKeyReused = StoreError(code: "idempotency_key_reused",
                                                        message: "the idempotency key was used for another request")
    public static func backend(_ message: String) -> StoreError { StoreError(code: "backend", message: message) }
    public var description: String { "\(code): \(message)" }
}
