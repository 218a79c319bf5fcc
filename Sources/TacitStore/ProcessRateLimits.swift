import Foundation
import Synchronization

/// Rate-limit counters kept in this process's memory only: for a store that keeps none,
/// and for the in-memory test store. Several instances then each count on their own, so
/// production stores implement `RateLimitStore` themselves.
public final class ProcessRateLimits: RateLimitStore {
    private let counters = Mutex<[String: (start: Date, hits: Int, ends: Date)]>([:])

    public init() {}

    public func consume(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        let start = limit.windowStart(at)
        return counters.withLock { counters in
            let hits = counters[key].flatMap { $0.start == start ? $0.hits : nil } ?? 0
            guard hits < limit.limit else { return .limited(retryAfter: limit.retryAfter(at)) }
            counters[key] = (start, hits + 1, limit.windowEnd(at))
            return .allowed(hits: hits + 1)
        }
    }

    public func hits(_ key: String, _ limit: RateLimit, at: Date) async throws -> Int {
        let start = limit.windowStart(at)
        return counters.withLock { $0[key].flatMap { $0.start == start ? $0.hits : nil } ?? 0 }
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
