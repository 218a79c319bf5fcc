import Foundation
import TacitCore
import TacitHTTP
import TacitStore

/// Counts wrong codes per number across verifications (NIST SP 800-63B: at most 100
/// consecutive failures, reset by a success). Each verification already fails after 5
/// wrong codes; this stops an attacker who starts verification after verification.
struct FailedCheckGuard: Sendable {
    let limiter: RateLimiter
    let configuration: SecurityConfiguration
    let clock: any TacitClock
    let metrics: SecurityMetrics

    var limit: RateLimit { RateLimit(configuration.maxConsecutiveFailedChecks, per: configuration.failedChecksWindow) }

    /// Refuses the check when the number's run of failures is at the limit; the
    /// refused check is not an attempt on the verification.
    func admit(_ verification: Verification) async throws {
        guard applies(to: verification) else { return }
        let now = clock.now()
        guard try await limiter.hits("failed-checks", verification.phoneNumber, limit, at: now) >= limit.limit else { return }
        metrics.refused("failed_checks", at: "check")
        throw APIProblem.rateLimited(retryAfter: limit.retryAfter(now),
                                     detail: "Too many wrong codes were entered for this number; retry later.")
    }

    /// Reads the route's answer: a wrong code extends the run, a success ends it.
    func record(_ response: HTTPResponse, for verification: Verification) async {
        guard applies(to: verification) else { return }
        if response.status == 200 {
            try? await limiter.reset("failed-checks", verification.phoneNumber)
        } else if Self.isWrongCode(response) {
            _ = try? await limiter.consume("failed-checks", verification.phoneNumber, limit, at: clock.now())
        }
    }

    private func applies(to verification: Verification) -> Bool {
        configuration.maxConsecutiveFailedChecks > 0
            && (configuration.limitVirtualRange || !VirtualRange.contains(verification.phoneNumber))
    }

    /// `invalid-code`, or the `too-many-attempts` that the fifth wrong code itself produces
    /// (a check on an already failed verification has the same slug but another title).
    static func isWrongCode(_ response: HTTPResponse) -> Bool {
        guard case .bytes(let body) = response.body,
              case .object(let object)? = try? JSONParser.parse(body) else { return false }
        let type = object["type"]?.stringValue
        return (response.status == 400 && type == "invalid-code")
            || (response.status == 410 && type == "too-many-attempts" && object["title"]?.stringValue == "Too many attempts")
    }
}
