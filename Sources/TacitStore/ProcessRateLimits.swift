import Foundation
import Synchronization

/// Rate-limit counters kept in this process's memory only: for a store that keeps none,
/// and for the in-memory test store. Several instances then each count on their own, so
/// production stores implement `RateLimitStore` themselves.
public final class ProcessRateLimits: RateLimitStore {
    private let counters = Mutex<[String: (window: SlidingWindow, ends: Date)]>([:])

    public init() {}

    public func consume(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        counters.withLock { Self.consume(key, limit, at: at, in: &$0) }
    }

    /// Applies a change's counters at once, for a store whose update holds its own lock
    /// while it calls this.
    public func apply(_ changes: [RateChange], at: Date) {
        counters.withLock { counters in
            for change in changes {
                switch change {
                case .consume(let key, let limit): _ = Self.consume(key, limit, at: at, in: &counters)
                case .reset(let key): counters.removeValue(forKey: key)
                }
            }
        }
    }

    private static func consume(_ key: String, _ limit: RateLimit, at: Date,
                                in counters: inout [String: (window: SlidingWindow, ends: Date)]) -> RateDecision {
        var window = counters[key]?.window ?? SlidingWindow()
        let decision = window.consume(limit, at: at)
        if case .allowed = decision { counters[key] = (window, window.expiry(limit)) }
        return decision
    }

    public func peek(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        counters.withLock { ($0[key]?.window ?? SlidingWindow()).decision(limit, at: at) }
    }

    public func hits(_ key: String, _ limit: RateLimit, at: Date) async throws -> Int {
        counters.withLock { $0[key]?.window.hits(limit, at: at) ?? 0 }
    }

    public func resetRate(_ key: String) async throws { _ = counters.withLock { $0.removeValue(forKey: key) } }

    public func sweepRates(at: Date) async throws -> Int {
        counters.withLock { counters in
            let before = counters.count
            counters = counters.filter { $0.value.ends > at }
            return before - counters.count
        }
    }
}
