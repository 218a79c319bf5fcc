import Foundation

/// The send outbox. Rows are added only inside `insert` and `update` (with the step that
/// issued their code) and deleted by the update that applies the provider's answer
/// (`StoreChange.sendsDone`); these methods lease and drop them. Every method is one transaction.
public protocol SendOutboxStore: Sendable {
    /// Takes up to `limit` rows due at `now`, oldest due first, and pushes their `dueAt`
    /// to `now + lease`: while a worker holds a row no other worker takes it, and a row
    /// whose worker died is taken again once its lease runs out.
    func claimSends(now: Date, lease: TimeInterval, limit: Int) async throws -> [QueuedSend]

    /// Moves a held row's `dueAt` to `until` (the lease is renewed while its send is in
    /// flight, or given back with `until` now). Nothing happens to a row that is gone.
    func leaseSend(id: String, until: Date) async throws

    /// Deletes rows without sending them (their step is over, or their code can't be opened).
    func dropSends(ids: [String]) async throws

    /// The earliest `dueAt` of any row, nil when there is none.
    func nextSendDue() async throws -> Date?

    /// The rows of one verification, oldest first.
    func queuedSends(verificationId: String) async throws -> [QueuedSend]

    /// How many rows are queued and leased at `now`, and the oldest one's age.
    func sendOutboxGauge(now: Date) async throws -> SendOutboxGauge
}
