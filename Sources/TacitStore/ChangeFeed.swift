/// What a store shared by several instances tells each of them about the writes any of
/// them committed (docs/postgres.md#several-instances-the-change-feed): else one learns of another's changes only when
/// it next reads, so a live event stream on one would never see events written through
/// another, and a webhook enqueued elsewhere would wait for the outbox's idle poll.
///
/// A store that only one process uses (SQLite, the in-memory store) needn't offer it:
/// everything written is written by the instance that publishes it.
///
/// Notices are hints, never data: a reader acts on one by reading the store, so a notice
/// that arrives twice, or for a change already seen, costs a read at most.
public protocol ChangeFeed: Sendable {
    /// Reports the changes committed from now on, this instance's own included, to
    /// `receive`, until the calling task is cancelled: every outbox write, and the events
    /// of every verification that some instance follows. It keeps its own connection and
    /// opens it again whenever it breaks; each time it is listening again (the first time
    /// too) it reports `.resync`, since changes committed meanwhile were not reported.
    /// `receive` is called on the feed's own thread and must not block.
    func listen(_ receive: @escaping @Sendable (StoreNotice) -> Void) async

    /// Has the events of the verification reported from now on, to every instance's
    /// `listen`, until the verification is deleted. It returns once any write to it in
    /// flight has committed, so a read of the store after it, and the notices of the
    /// writes after that, leave no event out. A live stream calls it before its first
    /// read: a notice for a verification no one follows would be work for nobody.
    func follow(_ verificationId: String) async throws
}
