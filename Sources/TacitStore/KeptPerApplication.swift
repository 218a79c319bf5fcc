import Foundation
import Synchronization

/// What a store last read of an application, kept for a second: its settings, which every
/// start reads (`ApplicationDefaults`), and its message templates, which every send reads.
/// Kept, each is one read a second per application instead of one per create or send. The
/// store forgets an application's copy when it changes it itself, so a change through this
/// process shows at once, and `tacit apps set` or `apps templates set` (another process on
/// the same database) reaches a running server within `lifetime`. Credentials and
/// revocation never come from here: a key's lookup reads the row, so a revoked
/// application stops at once.
///
/// Inlinable, so that each store's module specializes it for what it keeps: every create
/// asks it two or three times, and unspecialized, each call looked up the generic types
/// of its copies and its table in the runtime's caches (docs/performance.md).
public final class KeptPerApplication<Value: Sendable>: Sendable {
    public static var lifetime: Duration { .seconds(1) }
    /// More applications than this and the copies are dropped all at once: they are few,
    /// and only an authenticated caller's application is ever asked for.
    @usableFromInline static var capacity: Int { 1_024 }

    @usableFromInline struct Kept: Sendable {
        @usableFromInline let value: Value
        @usableFromInline let until: ContinuousClock.Instant

        @inlinable init(value: Value, until: ContinuousClock.Instant) {
            self.value = value
            self.until = until
        }
    }
    @usableFromInline let kept = Mutex<[String: Kept]>([:])

    public init() {}

    /// What application `id` has, from the copy while it is fresh at `now`, else from
    /// `read`, which is then kept.
    @inlinable
    public func value(of id: String, now: ContinuousClock.Instant = .now,
                      read: () async throws -> Value) async throws -> Value {
        if let copy = kept.withLock({ $0[id] }), copy.until > now { return copy.value }
        let value = try await read()
        kept.withLock { kept in
            if kept.count >= Self.capacity { kept.removeAll() }
            kept[id] = Kept(value: value, until: now + Self.lifetime)
        }
        return value
    }

    /// Drops the copy of `id`: the store has just changed the application.
    public func forget(_ id: String) {
        _ = kept.withLock { $0.removeValue(forKey: id) }
    }
}
