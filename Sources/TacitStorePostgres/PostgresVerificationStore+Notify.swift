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
