import Foundation
import Synchronization
import TacitCore
import TacitStore

/// Admits the device events a client token posts to its verification, or refuses them
/// with 429 `rate-limited` and `Retry-After`: a token bucket per verification (a burst,
/// then a steady rate) and a cap on how many one verification may hold in all. Only
/// device events pass through here: the events the server writes itself are never
/// refused, so a flooding device can't keep a cancel or a summary off the timeline.
///
/// The cap counts in the store's shared counters, so several instances together admit
/// no more than it; the rate is this process's own (a few buckets in memory), since it
/// only smooths what the cap already bounds.
final class DeviceEventGuard: Sendable {
    /// The cap's counter outlives any verification (at most 4 steps of 900 s), so it
    /// never forgets a live verification's events.
    static let capWindow: TimeInterval = 86_400
    /// Buckets kept before the full ones (those that admit what a new one would) are forgotten.
    static let bucketsKept = 1_024

    let limiter: RateLimiter
    let limits: TimelineLimits
    let clock: any TacitClock
    let metrics: SecurityMetrics
    private let buckets = Mutex<[String: TokenBucket]>([:])

    init(limiter: RateLimiter, limits: TimelineLimits, clock: any TacitClock, metrics: SecurityMetrics) {
        self.limiter = limiter
        self.limits = limits
        self.clock = clock
        self.metrics = metrics
    }

    /// Counts one device event for verification `id`, or throws `rate-limited`. The rate
    /// is judged first, so a refused burst spends none of the verification's cap.
    func admit(_ id: String) async throws {
        let now = clock.now()
        if let retryAfter = takeToken(id, at: now) {
            metrics.refused("device_event_rate", at: "device_event")
            throw APIProblem.rateLimited(retryAfter: retryAfter,
                                         detail: "This verification's device sent events faster than the server records"
                                                 + " them; retry later.")
        }
        let cap = RateLimit(limits.maxDeviceEvents, per: Self.capWindow)
        if case .limited(let retryAfter) = try await limiter.consume("device-events", id, cap, at: now) {
            metrics.refused("device_event_cap", at: "device_event")
            throw APIProblem.rateLimited(retryAfter: retryAfter,
                                         detail: "This verification holds the \(limits.maxDeviceEvents) device events"
                                                 + " it may; the server's own events are still recorded.")
        }
    }

    /// Nil when the verification's bucket had a token (or the rate is off), else the
    /// seconds until it will.
    private func takeToken(_ id: String, at now: Date) -> Int? {
        guard limits.deviceEventRate.limit > 0 else { return nil }
        return buckets.withLock { buckets in
            if buckets.count >= Self.bucketsKept { buckets = buckets.filter { !$0.value.isFull(at: now) } }
            var bucket = buckets[id]
                ?? TokenBucket(capacity: limits.deviceEventBurst, rate: limits.deviceEventRate, at: now)
            let wait = bucket.take(at: now)
            buckets[id] = bucket
            return wait
        }
    }
}
