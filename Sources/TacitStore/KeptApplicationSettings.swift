import Foundation
import Synchronization

/// Applications' settings as a store last read them, kept for a second. Every start reads
/// its application's defaults (`ApplicationDefaults`), which was a read of the
/// application's row per create; kept, it is one read a second per application. The store
/// forgets an application's copy when it changes or revokes it itself, so a change through
/// this process shows at once, and `tacit apps set` (another process on the same database)
/// reaches a running server within `lifetime`. Credentials and revocation never come from
/// here: a key's lookup reads the row, so a revoked application stops at once.
public final class KeptApplicationSettings: Sendable {
    public static let lifetime: Duration = .seconds(1)
    /// More applications than this and the copies are dropped all at once: they are few,
    /// and only an authenticated caller's application is ever asked for.
    static let capacity = 1_024

    private struct Kept {
        let settings: ApplicationSettings?
        let until: ContinuousClock.Instant
    }
    private let kept = Mutex<[String: Kept]>([:])

    public init() {}

    /// The settings of application `id` (nil when there is none), from the copy while it is
    /// fresh at `now`, else from `read`, which is then kept.
    public func settings(of id: String, now: ContinuousClock.Instant = .now,
                         read: () async throws -> ApplicationSettings?) async throws -> ApplicationSettings? {
        if let copy = kept.withLock({ $0[id] }), copy.until > now { return copy.settings }
        let settings = try await read()
        kept.withLock { kept in
            if kept.count >= Self.capacity { kept.removeAll() }
            kept[id] = Kept(settings: settings, until: now + Self.lifetime)
        }
        return settings
    }

    /// Drops the copy of `id`: the store has just changed the application.
    public func forget(_ id: String) {
        _ = kept.withLock { $0.removeValue(forKey: id) }
    }
}
