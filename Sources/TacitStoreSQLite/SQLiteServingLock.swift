import CSQLite
import Foundation

/// One serving process per SQLite file. The send outbox's rows say until when they are
/// leased, not to whom: with one server on the file, every lease it finds when it starts is
/// a dead process's, so it gives them back at once (`releaseSendLeases`) instead of waiting
/// each out, and a code queued before a kill still leaves within its step
/// (docs/providers.md#durable-sends). The lock is `flock` on a file beside the database,
/// never on the database itself (closing any descriptor of the database drops SQLite's own
/// locks), and the kernel lets it go when the process ends, however it ends. Several
/// instances need PostgreSQL.
public final class SQLiteServingLock: Sendable {
    /// Another process (or another server in this one) serves the file.
    public struct Taken: Error, CustomStringConvertible {
        public let databasePath: String
        public var description: String {
            "another tacit serve is running on \(databasePath): one server per SQLite file "
                + "(several instances share a PostgreSQL database, see docs/deploy.md)"
        }
    }

    /// The lock file of the database at `databasePath`.
    public static func lockPath(_ databasePath: String) -> String { databasePath + "-serve.lock" }

    private let descriptor: Int32

    /// Takes the file for this process, or throws `Taken` at once when another server has it.
    public init(databasePath: String) throws {
        let path = Self.lockPath(databasePath)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.unusable(path, errno) }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EINTR else {
                close(descriptor)
                if failure == EWOULDBLOCK { throw Taken(databasePath: databasePath) }
                throw Self.unusable(path, failure)
            }
        }
        self.descriptor = descriptor
    }

    private static func unusable(_ path: String, _ failure: Int32) -> SQLiteError {
        let reason = String(cString: strerror(failure))
        return SQLiteError(code: SQLITE_CANTOPEN, message: "The lock file \(path) can't be used (\(reason)).")
    }

    /// The lock goes with the descriptor. The file stays: removing it would let a second
    /// server lock a new file while the first still holds the old one.
    deinit { close(descriptor) }
}
