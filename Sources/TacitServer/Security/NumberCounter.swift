import Foundation
import TacitStore

/// A per-number limit counted twice (docs/security.md, "Second adversarial pass"): once
/// per application, so one application's starts, sends and wrong codes never spend
/// another's share of the number, and once over every application together, under a
/// higher shared ceiling that protects the number's owner whichever application asks.
struct NumberCounter: Sendable {
    /// The counter kind. The shared ceiling keeps the kind's key as it was before
    /// applications had their own counters, so counts made then carry over to it; each
    /// application's counter is `"app-" + kind` over the application and the number.
    let kind: String
    let perApplication: RateLimit
    let ceiling: RateLimit

    /// The application's counter, then the shared one, for `number` in `application`.
    func counters(_ number: String, application: String) -> [(kind: String, subject: String, limit: RateLimit)] {
        [("app-" + kind, application + " " + number, perApplication), (kind, number, ceiling)]
    }
}

extension RateLimiter {
    /// Throws `rate-limited` with `detail`, counting nothing, when either of the number's
    /// counters would refuse a hit; `retry_after` is the longer wait of the two.
    func require(_ counter: NumberCounter, _ number: String, application: String, at: Date,
                 detail: String) async throws {
        var wait: Int?
        for (kind, subject, limit) in counter.counters(number, application: application) {
            if case .limited(let retryAfter) = try await peek(kind, subject, limit, at: at) {
                wait = max(wait ?? 0, retryAfter)
            }
        }
        if let wait { throw APIProblem.rateLimited(retryAfter: wait, detail: detail) }
    }

    /// Counts one hit on both of the number's counters when both admit it; false (and
    /// nothing counted) when either is full.
    func consume(_ counter: NumberCounter, _ number: String, application: String, at: Date) async throws -> Bool {
        let counters = counter.counters(number, application: application)
        for (kind, subject, limit) in counters {
            if case .limited = try await peek(kind, subject, limit, at: at) { return false }
        }
        for (kind, subject, limit) in counters { _ = try await consume(kind, subject, limit, at: at) }
        return true
    }

    /// Forgets both of the number's counters for `application` (a right code ends both runs).
    func reset(_ counter: NumberCounter, _ number: String, application: String) async throws {
        for (kind, subject, _) in counter.counters(number, application: application) {
            try await reset(kind, subject)
        }
    }
}

extension SecurityConfiguration {
    /// What a shared ceiling left unset is: three applications' worth of the per-application limit.
    static let ceilingFactor = 3

    /// Code sends to one number: per application and over all of them.
    var sendCounter: NumberCounter {
        NumberCounter(kind: "send", perApplication: sendsPerNumber,
                      ceiling: sendsPerNumberAllApplications ?? Self.ceiling(over: sendsPerNumber))
    }

    /// Verifications started for one number: per application and over all of them.
    var startCounter: NumberCounter {
        NumberCounter(kind: "start-number", perApplication: verificationsPerNumber,
                      ceiling: verificationsPerNumberAllApplications ?? Self.ceiling(over: verificationsPerNumber))
    }

    /// The run of wrong codes for one number: per application and over all of them.
    var failedCheckCounter: NumberCounter {
        let ceiling = maxConsecutiveFailedChecksAllApplications ?? maxConsecutiveFailedChecks * Self.ceilingFactor
        return NumberCounter(kind: "failed-checks",
                             perApplication: RateLimit(maxConsecutiveFailedChecks, per: failedChecksWindow),
                             ceiling: RateLimit(ceiling, per: failedChecksWindow))
    }

    private static func ceiling(over limit: RateLimit) -> RateLimit {
        RateLimit(limit.limit * ceilingFactor, per: limit.window)
    }
}
