import Foundation
import TacitCore
import TacitStore

/// Counts wrong codes per number across verifications (NIST SP 800-63B: at most 100
/// consecutive failures, reset by a success). Each verification already fails after 5
/// wrong codes; this stops an attacker who starts verification after verification.
/// The run is counted per application and under a shared ceiling over all of them
/// (`NumberCounter`): one application's wrong codes never lock another's user out.
struct FailedCheckGuard: Sendable {
    let limiter: RateLimiter
    let configuration: SecurityConfiguration
    let clock: any TacitClock
    let metrics: SecurityMetrics

    var counter: NumberCounter { configuration.failedCheckCounter }

    static let lockedDetail = "Too many wrong codes were entered for this number; retry later."

    /// Refuses the check when the number's run of failures is at either limit; the
    /// refused check is not an attempt on the verification.
    func admit(_ verification: Verification) async throws {
        guard applies(to: verification) else { return }
        do {
            try await requireUnlocked(verification.contact, application: verification.applicationId)
        } catch let problem as APIProblem {
            metrics.refused("failed_checks", at: "check")
            throw problem
        }
    }

    /// Throws `rate-limited` while `number`'s checks are locked for `application`: a start
    /// is refused up front then, rather than send a code no check could accept.
    func requireUnlocked(_ number: String, application: String) async throws {
        try await limiter.require(counter, number, application: application, at: clock.now(),
                                  detail: Self.lockedDetail)
    }

    /// The check's count, for the runner to commit in the check's transaction; nil when
    /// the guard doesn't count this number.
    func tally(for verification: Verification) throws -> FailedCheckTally? {
        guard applies(to: verification) else { return nil }
        let counted = try counter.counters(verification.contact, application: verification.applicationId)
            .map { (key: try limiter.key($0.kind, $0.subject), limit: $0.limit) }
        return FailedCheckTally(counted)
    }

    /// Acts on what the check did, for a check that committed no count of its own (one a
    /// silent provider judged): a wrong code extends the run (the fifth one, which
    /// fails its verification, too), a right code ends it. A check that never reached
    /// the code (`nil`), or found the verification already finished, changes nothing.
    func record(_ result: CheckResult?, for verification: Verification) async {
        guard applies(to: verification), let result else { return }
        let number = verification.contact, application = verification.applicationId
        switch result {
        case .completed:
            try? await limiter.reset(counter, number, application: application)
        case .wrongCode, .tooManyAttempts:
            for (kind, subject, limit) in counter.counters(number, application: application) {
                _ = try? await limiter.consume(kind, subject, limit, at: clock.now())
            }
        case .notPending:
            break
        }
    }

    func applies(to verification: Verification) -> Bool {
        applies(toNumber: verification.contact)
    }

    func applies(toNumber number: String) -> Bool {
        let counter = configuration.failedCheckCounter
        return (counter.perApplication.limit > 0 || counter.ceiling.limit > 0)
            && (configuration.limitVirtualRange || !VirtualRange.contains(number))
    }
}
