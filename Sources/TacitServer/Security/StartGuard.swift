import Foundation
import TacitCore
import TacitHTTP
import TacitPhone
import TacitStore

/// The checks a new verification passes before the route sees it: per-address and
/// per-number limits, destination lists, the number's remaining send quota, and the
/// sequential-number velocity guard. A refused start sends nothing; it shows in
/// `/metrics` and a log line that names the reason, never the number.
struct StartGuard: Sendable {
    let limiter: RateLimiter
    let configuration: SecurityConfiguration
    let clock: any TacitClock
    let dev: Bool
    let metrics: SecurityMetrics
    let log: SecurityLog

    /// `start` is the body as the route reads it, parsed once: the guard judges the very
    /// number the route then verifies.
    func admit(_ request: HTTPRequest, _ start: StartSubmission) async throws {
        let now = clock.now()
        if !(dev && request.isLoopback && !configuration.limitLoopbackInDev) {
            try await refuse("address_limit") {
                try await limiter.spend("start-address", request.remoteAddress, configuration.verificationsPerAddress, at: now,
                                        detail: "Too many verifications were started from this address; retry later.")
            }
        }
        // A body the route will refuse anyway (bad JSON, bad number) is left to the route.
        guard let number = start.parsedNumber else { return }
        if number.isVirtual, !configuration.limitVirtualRange { return }
        if let reason = configuration.destinations.refusal(e164: number.e164, region: number.region) {
            note(reason, region: number.region)
            throw APIProblem.destinationDenied
        }
        try await checkSendQuota(number, now: now)
        try await refuse("number_limit") {
            try await limiter.spend("start-number", number.e164, configuration.verificationsPerNumber, at: now,
                                    detail: "Too many verifications were started for this number; retry later.")
        }
        try await checkVelocity(number, now: now)
    }

    /// A number whose send quota is spent can receive no code, so the start is refused
    /// up front rather than run a workflow whose every step would fail.
    private func checkSendQuota(_ number: PhoneNumber, now: Date) async throws {
        let limit = configuration.sendsPerNumber
        guard limit.limit > 0, try await limiter.hits("send", number.e164, limit, at: now) >= limit.limit else { return }
        note("send_limit", region: number.region)
        throw APIProblem.rateLimited(retryAfter: limit.retryAfter(now), detail: "Too many codes were sent to this number; retry later.")
    }

    /// Counts distinct numbers per range (all but the last few digits): one hit per
    /// number per window, then one per range for each new number.
    private func checkVelocity(_ number: PhoneNumber, now: Date) async throws {
        let limit = configuration.velocity
        guard limit.limit > 0, number.e164.count > configuration.velocityTailDigits + 4 else { return }
        let range = String(number.e164.dropLast(configuration.velocityTailDigits))
        guard case .allowed = try await limiter.consume("velocity-member", number.e164, RateLimit(1, per: limit.window), at: now) else { return }
        if case .limited(let retryAfter) = try await limiter.consume("velocity-range", range, limit, at: now) {
            note("sequential_numbers", region: number.region)
            throw APIProblem.rateLimited(retryAfter: retryAfter, detail: "Too many numbers in one range were started recently; retry later.")
        }
    }

    private func refuse(_ reason: String, _ body: () async throws -> Void) async throws {
        do { try await body() } catch let problem as APIProblem {
            note(reason, region: nil)
            throw problem
        }
    }

    private func note(_ reason: String, region: String?) {
        metrics.refused(reason, at: "start")
        log.warning("refused a verification start: \(reason)" + (region.map { " (region \($0))" } ?? ""))
    }
}
