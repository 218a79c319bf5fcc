import Foundation

/// The webhook outbox and the provider-callback replay cache. Rows are added inside
/// `insert` and `update` (with the change they report), or by `enqueueOutbox` for what no
/// verification records (a start a fraud rule refused); these methods move them along.
/// Every method is one transaction.
public protocol OutboxStore: Sendable {
    /// Adds messages that report no stored change: their `verificationId` is empty. They are
    /// delivered, retried and settled as every other row.
    func enqueueOutbox(_ messages: [OutboxMessage]) async throws

    /// Claims up to `limit` pending messages due at `now`, oldest due first, and pushes
    /// their next attempt to `now + lease`: a worker that dies mid-delivery leaves them
    /// to be tried again after the lease (at-least-once), and two workers never hold
    /// the same message at once.
    ///
    /// A due message to an endpoint disabled so far (`disableWebhookEndpoint`, through
    /// any instance sharing the store) is not leased: the claim settles it as `disabled`
    /// and returns it once so, for the worker to record without sending anything.
    func claimOutbox(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxMessage]

    /// Records an attempt on a message: counts it and applies `outcome`.
    func recordOutboxAttempt(id: String, outcome: OutboxOutcome, at: Date) async throws

    /// The earliest `nextAttemptAt` among pending messages, nil when none is pending.
    func nextOutboxDue() async throws -> Date?

    /// A message by its id.
    func outboxMessage(id: String) async throws -> OutboxMessage?

    /// Messages about one verification, oldest first.
    func outboxMessages(verificationId: String) async throws -> [OutboxMessage]

    /// Marks an endpoint disabled (it answered 410 Gone) and every pending message
    /// to it `disabled`.
    func disableWebhookEndpoint(_ endpoint: String, at: Date) async throws

    /// Endpoints disabled so far.
    func disabledWebhookEndpoints() async throws -> Set<String>

    /// Remembers a provider callback's replay key until `expiresAt`. Returns false when
    /// the key is already remembered and unexpired at `now`: the callback is a replay.
    func rememberCallback(key: String, expiresAt: Date, now: Date) async throws -> Bool
}
