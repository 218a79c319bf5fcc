import Foundation
import TacitCore
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
        do {
            try await limiter.require("failed-checks", verification.phoneNumber, limit, at: now,
                                      detail: "Too many wrong codes were entered for this number; retry later.")
        } catch let problem as APIProblem {
            metrics.refused("failed_checks", at: "check")
            throw problem
        }
    }

    /// The check's count, for the runner to commit in the check's transaction; nil when
    /// the guard doesn't count this number.
    func tally(for verification: Verification) throws -> FailedCheckTally? {
        guard applies(to: verification) else { return nil }
        return FailedCheckTally(key: try limiter.key("failed-checks", verification.phoneNumber), limit: limit)
    }

    /// Acts on what the check did, for a check that committed no count of its own (one a
    /// silent provider judged): a wrong code extends the run (the fifth one, which
    /// fails its verification, too), a right code ends it. A check that never reached
    /// the code (`nil`), or found the verification already finished, changes nothing.
    func record(_ result: CheckResult?, for verification: Verification) async {
        guard applies(to: verification), let result else { return }
        switch result {
        case .completed:
            try? await limiter.reset("failed-checks", verification.phoneNumber)
        case .wrongCode, .tooManyAttempts:
            _ = try? await limiter.consume("failed-checks", verification.phoneNumber, limit, at: clock.now())
        case .notPending:
            break
        }
    }

    private func applies(to verification: Verification) -> Bool {
        configuration.maxConsecutiveFailedChecks > 0
            && (configuration.limitVirtualRange || !VirtualRange.contains(verification.phoneNumber))
    }
}
