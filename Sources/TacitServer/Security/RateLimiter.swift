import Foundation
import Synchronization
import TacitStore

/// Counts hits against the store's shared counters. Subjects (numbers, addresses,
/// key ids) become keyed hashes here, so the store holds none of them in clear.
struct RateLimiter: Sendable {
    let store: any RateLimitStore
    let fields: SealedFields

    func key(_ kind: String, _ subject: String) -> String { kind + ":" + fields.index(kind + ":" + subject) }

    /// Counts one hit; a limit of 0 or less turns the counter off.
    func consume(_ kind: String, _ subject: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        guard limit.limit > 0 else { return .allowed(hits: 0) }
        return try await store.consume(key(kind, subject), limit, at: at)
    }

    /// Counts one hit, or throws `rate-limited` with `detail`.
    func spend(_ kind: String, _ subject: String, _ limit: RateLimit, at: Date, detail: String) async throws {
        if case .limited(let retryAfter) = try await consume(kind, subject, limit, at: at) {
            throw APIProblem.rateLimited(retryAfter: retryAfter, detail: detail)
        }
    }

    func hits(_ kind: String, _ subject: String, _ limit: RateLimit, at: Date) async throws -> Int {
        guard limit.limit > 0 else { return 0 }
        return try await store.hits(key(kind, subject), limit, at: at)
    }

    func reset(_ kind: String, _ subject: String) async throws {
        try await store.resetRate(key(kind, subject))
    }
}

/// Counters for a store that keeps none: this process only. Several instances
/// then each count on their own, so production stores implement `RateLimitStore`.
final class LocalRateLimits: RateLimitStore {
    private let counters = Mutex<[String: (start: Date, hits: Int, ends: Date)]>([:])

    func consume(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        let start = limit.windowStart(at)
        return counters.withLock { counters in
            let hits = counters[key].flatMap { $0.start == start ? $0.hits : nil } ?? 0
            guard hits < limit.limit else { return .limited(retryAfter: limit.retryAfter(at)) }
            counters[key] = (start, hits + 1, limit.windowEnd(at))
            return .allowed(hits: hits + 1)
        }
    }

    func hits(_ key: String, _ limit: RateLimit, at: Date) async throws -> Int {
        let start = limit.windowStart(at)
        return counters.withLock { $0[key].flatMap { $0.start == start ? $0.hits : nil } ?? 0 }
    }

    func resetRate(_ key: String) async throws { _ = counters.withLock { $0.removeValue(forKey: key) } }

    func sweepRates(at: Date) async throws -> Int {
        counters.withLock { counters in
            let before = counters.count
            counters = counters.filter { $0.value.ends > at }
            return before - counters.count
        }
    }
}
