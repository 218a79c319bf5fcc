import Foundation

/// When to try a failed delivery again: exponential backoff from `baseDelay`, capped at
/// `maxDelay`, jittered so that receivers coming back up are not hit all at once; after
/// `maxAttempts` attempts the message is dead. The defaults span about 7.5 hours.
public struct WebhookRetryPolicy: Sendable, Equatable {
    public var maxAttempts = 8
    public var baseDelay: TimeInterval = 5
    public var factor: Double = 4
    public var maxDelay: TimeInterval = 6 * 3600
    /// The share of a delay that jitter may add or remove.
    public var jitter: Double = 0.2

    public init() {}

    /// When a message created at `createdAt` is given up whatever its attempts say: after
    /// the longest its whole schedule can take, and a day more for leases and restarts.
    /// A row some path never settled (a target that vanished mid-attempt) ends here.
    public func giveUp(after createdAt: Date) -> Date {
        let schedule = (1..<max(1, maxAttempts)).reduce(0.0) { total, attempt in
            total + (delay(afterAttempt: attempt, random: 1) ?? 0)
        }
        return createdAt.addingTimeInterval(schedule + 24 * 3600)
    }

    /// The delay after attempt number `attempt` (1-based) failed, nil when no attempt is left.
    /// `random` is a value in 0..<1 (fixed in tests).
    public func delay(afterAttempt attempt: Int, random: Double) -> TimeInterval? {
        guard attempt < maxAttempts else { return nil }
        let exponent = Double(max(0, attempt - 1))
        let base = min(maxDelay, baseDelay * pow(factor, exponent))
        return min(maxDelay, base * (1 + jitter * (2 * random - 1)))
    }
}
