/// One change a store's feed reports (`ChangeFeed`). A notice names what changed, never
/// what it holds: ids and sequence numbers only, no number, code or token, so a feed that
/// crosses a network or lands in a database's logs carries nothing secret.
public enum StoreNotice: Sendable, Equatable {
    /// A committed write added the events `after + 1 ... through` to a verification's
    /// timeline (one notice per write, however many events it added).
    case events(verificationId: String, after: Int, through: Int)
    /// A committed write enqueued one or more webhook outbox rows.
    case outbox
    /// The feed may have missed notices (it has just connected, or connected again after
    /// losing its connection): whoever follows anything reads it again from the store.
    case resync
}
