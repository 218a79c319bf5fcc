import Foundation

/// A limit: at most `limit` hits in any span of `window` seconds (a sliding window,
/// counted by `SlidingWindow`), not per window aligned to the clock.
public struct RateLimit: Sendable, Equatable {
    public var limit: Int
    public var window: TimeInterval

    public init(_ limit: Int, per window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// How many slices a counter keeps buckets for: what it stores per key is bounded by
    /// this, and a hit may count for up to `window / slices` longer than `window`.
    public static let slices = 30
}

/// What a counter said.
public enum RateDecision: Sendable, Equatable {
    /// Counted (or, from `peek`, would be); `hits` is the count within the window
    /// including this one (from `peek`, the count so far).
    case allowed(hits: Int)
    /// Not counted: the window is full until `retryAfter` seconds from now.
    case limited(retryAfter: Int)
}

/// Shared counters for rate limits, kept in the store so several instances agree.
/// Keys are opaque strings; callers pass keyed hashes, never a number or address.
public protocol RateLimitStore: Sendable {
    /// Counts one hit on `key` at `at`, unless `limit.limit` hits already count within
    /// the `limit.window` seconds before it. One small read-modify-write.
    func consume(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision
    /// What `consume` would answer at `at`, without counting: for a check made before
    /// the thing it limits has happened (a start counts only once it is created).
    func peek(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision
    /// The hits on `key` that count at `at`, without counting one.
    func hits(_ key: String, _ limit: RateLimit, at: Date) async throws -> Int
    /// Forgets `key` (a success ends a run of failures).
    func resetRate(_ key: String) async throws
    /// Forgets every counter whose last hit is a window old at `at`; returns how many.
    /// Such a counter counts nothing, so this only bounds what the store keeps.
    func sweepRates(at: Date) async throws -> Int
}
