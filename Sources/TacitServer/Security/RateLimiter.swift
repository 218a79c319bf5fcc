import Foundation
import TacitStore

/// Counts hits against the store's shared counters. Subjects (numbers, addresses,
/// key ids) become keyed hashes here, so the store holds none of them in clear.
struct RateLimiter: Sendable {
    let store: any RateLimitStore
    let fields: SealedFields

    func key(_ kind: String, _ subject: String) throws -> String {
        kind + ":" + (try fields.index(kind + ":" + subject))
    }

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

    /// What `consume` would say, without counting; a limit of 0 or less always admits.
    func peek(_ kind: String, _ subject: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        guard limit.limit > 0 else { return .allowed(hits: 0) }
        return try await store.peek(key(kind, subject), limit, at: at)
    }

    /// Throws `rate-limited` with `detail` when a hit would not be admitted, counting none:
    /// for a limit whose hit is counted later, once what it limits has happened.
    func require(_ kind: String, _ subject: String, _ limit: RateLimit, at: Date, detail: String) async throws {
        if case .limited(let retryAfter) = try await peek(kind, subject, limit, at: at) {
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
