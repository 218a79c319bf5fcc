import Foundation

/// A limit: at most `limit` hits per fixed window of `window` seconds.
public struct RateLimit: Sendable, Equatable {
    public var limit: Int
    public var window: TimeInterval

    public init(_ limit: Int, per window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// The start of the fixed window holding `date`; windows are aligned on the epoch,
    /// so every instance sharing the store agrees on them.
    public func windowStart(_ date: Date) -> Date {
        let seconds = date.timeIntervalSince1970
        return Date(timeIntervalSince1970: (seconds / window).rounded(.down) * window)
    }

    /// When the window holding `date` ends.
    public func windowEnd(_ date: Date) -> Date {
        windowStart(date).addingTimeInterval(window)
    }

    /// Whole seconds until the window holding `date` ends (at least 1).
    public func retryAfter(_ date: Date) -> Int {
        max(1, Int((windowStart(date).timeIntervalSince1970 + window - date.timeIntervalSince1970).rounded(.up)))
    }
}

/// What a counter said.
public enum RateDecision: Sendable, Equatable {
    /// Counted; `hits` is the window's count including this one.
    case allowed(hits: Int)
    /// Not counted: the window is full until `retryAfter` seconds from now.
    case limited(retryAfter: Int)
}

/// Shared counters for rate limits, kept in the store so several instances agree.
/// Keys are opaque strings; callers pass keyed hashes, never a number or address.
public protocol RateLimitStore: Sendable {
    /// Counts one hit on `key` in the window holding `at`, unless the window is full.
    /// One small upsert; a new window starts the count again.
    func consume(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision
    /// The hits counted on `key` in the window holding `at`, without counting one.
    func hits(_ key: String, _ limit: RateLimit, at: Date) async throws -> Int
    /// Forgets `key` (a success ends a run of failures).
    func resetRate(_ key: String) async throws
    /// Forgets every counter whose window ended at or before `at`; returns how many.
    /// An ended window counts nothing, so this only bounds what the store keeps.
    func sweepRates(at: Date) async throws -> Int
}
