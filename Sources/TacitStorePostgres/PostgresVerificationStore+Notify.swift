import Foundation
import Synchronization
import TacitStore

/// The change feed over `LISTEN`: one connection per `listen` call (one per instance),
/// held by a `PostgresListener` on its own thread, hearing what the triggers of
/// `PostgresSchema.changeFeed` send as each write commits, whichever instance wrote it.
extension PostgresVerificationStore: ChangeFeed {
    public func listen(_ receive: @escaping @Sendable (StoreNotice) -> Void) async {
        let listener = PostgresListener(conninfo: pool.conninfo, channelQuery: PostgresSchema.changeChannelQuery)
        await listener.run { [self] event in
            switch event {
            case .listening(let pid):
                listenerBackend.withLock { $0 = pid }
                receive(.resync)
            case .notification(let payload):
                if let notice = Self.notice(payload) { receive(notice) }
            }
        }
        listenerBackend.withLock { $0 = nil }
    }

    /// Locks the verification's row against writes first, so that a write in flight
    /// commits before this returns and the caller's read after it sees that write; then
    /// records the follow, which the trigger of every later write sees. A verification
    /// that doesn't exist has nothing to follow.
    public func follow(_ verificationId: String) async throws {
        try await pool.transaction { db in
            guard try !db.query("SELECT 1 AS found FROM verifications WHERE id = \(verificationId) FOR SHARE")
                .isEmpty else { return }
            try db.queue(
                "INSERT INTO followed_verifications (verification_id) VALUES (\(verificationId)) ON CONFLICT DO NOTHING"
            )
        }
    }

    /// The server process of the listener's connection while one listens, for tests that
    /// cut it (`pg_terminate_backend`) to see the feed reconnect and resync.
    public var listenerBackendPID: Int32? { listenerBackend.withLock { $0 } }

    /// A payload as the triggers write it; nil for one this version doesn't know.
    static func notice(_ payload: String) -> StoreNotice? {
        let words = payload.split(separator: " ", omittingEmptySubsequences: false)
        switch words.first {
        case "outbox" where words.count == 1:
            return .outbox
        case "events" where words.count == 4:
            guard let after = Int(words[2]), let through = Int(words[3]), after < through else { return nil }
            return .events(verificationId: String(words[1]), after: after, through: through)
        default:
            return nil
        }
    }
}
