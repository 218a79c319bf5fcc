/// How a connection is opened.
public struct SQLiteOptions: Sendable, Hashable {
    /// SQLite's `synchronous` setting.
    public enum Synchronous: String, Sendable, Hashable {
        /// In WAL mode, a commit survives an application crash, but an OS crash
        /// or power loss may lose the last few commits (never corrupting the
        /// file). Far fewer fsyncs: the usual choice for WAL.
        case normal = "NORMAL"
        /// Every commit is fsynced before it returns, so it survives power loss too.
        case full = "FULL"
    }

    /// Durability against power loss versus write speed; see ``Synchronous``.
    public var synchronous: Synchronous
    /// How long a call waits for another connection's lock before failing with `SQLITE_BUSY`.
    public var busyTimeoutMilliseconds: Int
    /// Refuse writes (`PRAGMA query_only`); for read connections beside a writer.
    public var readOnly: Bool

    public init(synchronous: Synchronous = .normal, busyTimeoutMilliseconds: Int = 5_000, readOnly: Bool = false) {
        self.synchronous = synchronous
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.readOnly = readOnly
    }
}
