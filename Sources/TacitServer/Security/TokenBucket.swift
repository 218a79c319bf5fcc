import Foundation
import TacitStore

/// A token bucket: up to `capacity` tokens, refilled evenly at `rate.limit` tokens every
/// `rate.window` seconds; each admitted hit takes one. A burst up to the capacity passes
/// at once, then hits pass at the steady rate and no faster, whenever they come.
struct TokenBucket: Sendable, Equatable {
    let capacity: Double
    /// Tokens added per second.
    let refill: Double
    private(set) var tokens: Double
    private(set) var updated: Date

    /// A full bucket. A capacity below one still admits one hit, or nothing would ever pass.
    init(capacity: Int, rate: RateLimit, at now: Date) {
        self.capacity = Double(max(1, capacity))
        refill = Double(max(0, rate.limit)) / max(rate.window, 1e-9)
        tokens = self.capacity
        updated = now
    }

    /// Takes a token at `now`; nil when one was there, else the whole seconds (at least 1)
    /// until one will be (a day for a bucket that never refills).
    mutating func take(at now: Date) -> Int? {
        fill(to: now)
        // Times are doubles far from zero, so a refill that should make exactly one token
        // may fall short by rounding: what is within a millionth of one counts as one.
        if tokens >= 1 - 1e-6 {
            tokens = max(0, tokens - 1)
            return nil
        }
        guard refill > 0 else { return 86_400 }
        return max(1, Int(((1 - tokens) / refill).rounded(.up)))
    }

    /// Whether the bucket has refilled at `now`: one in this state admits what a new one
    /// would, so it may be forgotten.
    func isFull(at now: Date) -> Bool {
        min(capacity, tokens + elapsed(to: now) * refill) >= capacity
    }

    private mutating func fill(to now: Date) {
        tokens = min(capacity, tokens + elapsed(to: now) * refill)
        updated = max(updated, now)
    }

    /// A clock that steps back adds nothing rather than taking tokens away.
    private func elapsed(to now: Date) -> Double {
        max(0, now.timeIntervalSince(updated))
    }
}
