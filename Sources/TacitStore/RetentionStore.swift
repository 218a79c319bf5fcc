import Foundation

/// Deleting what retention no longer allows the store to keep (docs/security.md#retention). Each call is
/// one transaction over at most `limit` rows, so a sweep of a large backlog is many short
/// writes, and the creates and checks queued behind each one wait for a batch, never for
/// the whole backlog. The caller loops until a call deletes fewer than `limit`.
public protocol RetentionStore: Sendable {
    /// Deletes at most `limit` verifications that finished before `cutoff`, oldest first,
    /// with everything the store keeps for them: their events, their number's index and
    /// sealed copy, code hashes and timer deadlines (all on the verification's row), and
    /// their webhook outbox rows. A pending verification is never deleted, nor one with a
    /// webhook still pending: it goes once the delivery is settled. The same call deletes at
    /// most `limit` settled outbox rows of no verification (`enqueueOutbox`) made before `cutoff`.
    ///
    /// A verification's finish time is its `endedAt`, or, for one finished without it, the
    /// time of the write that finished it.
    func sweepFinished(before cutoff: Date, limit: Int) async throws -> SweptVerifications

    /// Deletes at most `limit` provider-callback replay records whose window ended at or
    /// before `now`; returns how many. Such a record can no longer refuse a replay.
    func sweepCallbackReplays(at now: Date, limit: Int) async throws -> Int
}

/// What one `sweepFinished` call deleted.
public struct SweptVerifications: Sendable, Equatable {
    public var verifications: Int
    /// Timeline events, counted one by one however the store groups them.
    public var events: Int
    public var outbox: Int

    public init(verifications: Int = 0, events: Int = 0, outbox: Int = 0) {
        self.verifications = verifications
        self.events = events
        self.outbox = outbox
    }
}
