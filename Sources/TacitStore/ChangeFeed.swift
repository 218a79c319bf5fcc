/// What a store shared by several instances tells each of them about the writes any of
/// them committed (SPEC §9): without it an instance learns of another's changes only when
/// it next reads, so a live event stream on one would never see events written through
/// another, and a webhook enqueued elsewhere would wait for the outbox's idle poll.
///
/// A store that only one process uses (SQLite, the in-memory store) needn't offer it:
/// everything written is written by the instance that publishes it.
///
/// Notices are hints, never data: a reader acts on one by reading the store, so a notice
/// that arrives twice, or for a change already seen, costs a read at most.
public protocol ChangeFeed: Sendable {
    /// Reports every change committed from now on, this instance's own included, to
    /// `receive`, until the calling task is cancelled. It keeps its own connection and
    /// opens it again whenever it breaks; each time it is listening again (the first time
    /// too) it reports `.resync`, since changes committed meanwhile were not reported.
    /// `receive` is called on the feed's own thread and must not block.
    func listen(_ receive: @escaping @Sendable (StoreNotice) -> Void) async
}
