import Foundation
import Synchronization
import Testing
@testable import TacitServer
import TacitCore
import TacitHTTP
import TacitStore
import TacitTesting

/// The guards act on the typed values the routes work with: the runner's `CheckResult`
/// and the start request parsed once, never a response's status, title or body.
@Suite("Guards on typed results")
struct SecurityTypedGuardsTests {
    static let number = "+447911123456"

    static func failedChecks(limit: Int) -> (FailedCheckGuard, RateLimiter, ManualClock) {
        var configuration = SecurityConfiguration()
        configuration.maxConsecutiveFailedChecks = limit
        let clock = ManualClock()
        let limiter = RateLimiter(store: ProcessRateLimits(), fields: ServerSecrets(master: Array(repeating: 3, count: 32)).fieldProtection)
        return (FailedCheckGuard(limiter: limiter, configuration: configuration, clock: clock, metrics: SecurityMetrics()), limiter, clock)
    }

    static var verification: Verification {
        Verification(id: "vf_typed", phoneNumber: number, options: VerificationOptions(), clientTokenHash: [], createdAt: Date())
    }

    @Test("a wrong code and the fifth wrong code extend the number's run; a right code resets it; a check on a finished verification or one refused before the code changes nothing")
    func failedCheckRun() async throws {
        let (checks, limiter, clock) = Self.failedChecks(limit: 100)
        let verification = Self.verification
        func run() async throws -> Int { try await limiter.hits("failed-checks", Self.number, checks.counter.ceiling, at: clock.now()) }
        await checks.record(.wrongCode(attemptsRemaining: 4), for: verification)
        await checks.record(.tooManyAttempts, for: verification)
        #expect(try await run() == 2)
        await checks.record(.notPending(.failed), for: verification)
        await checks.record(nil, for: verification)
        #expect(try await run() == 2)
        await checks.record(.completed, for: verification)
        #expect(try await run() == 0)
    }

    @Test("at the limit the failed-check guard refuses the check with 429 before it is an attempt")
    func failedCheckLimit() async throws {
        let (checks, _, _) = Self.failedChecks(limit: 2)
        let verification = Self.verification
        try await checks.admit(verification)
        await checks.record(.wrongCode(attemptsRemaining: 4), for: verification)
        try await checks.admit(verification)
        await checks.record(.wrongCode(attemptsRemaining: 3), for: verification)
        await #expect(throws: APIProblem.self) { try await checks.admit(verification) }
    }

    @Test("over the API, a right code ends the number's run of wrong codes, and a malformed code is no part of it")
    func runResetThroughTheRoute() async throws {
        try await SecurityCalls.test(configure: {
            $0.security.maxConsecutiveFailedChecks = 3
            $0.security.verificationsPerNumber = .init(0, per: 86_400)
            $0.security.sendsPerNumber = .init(0, per: 600)
        }) { server in
            let first = try #require(try await server.start(Self.number, workflow: ["sms"]).json["request_id"] as? String)
            #expect(try await server.check(first, "000000").status == 400)
            #expect(try await server.check(first, "000000").status == 400)
            #expect(try await server.check(first, "12").status == 422)
            #expect(try await server.check(first, "123456").status == 200)
            let second = try #require(try await server.start(Self.number, workflow: ["sms"]).json["request_id"] as? String)
            for _ in 0..<3 { #expect(try await server.check(second, "000000").status == 400) }
            let locked = try await server.check(second, "123456")
            #expect(locked.status == 429)
            #expect(locked.type == "rate-limited")
        }
    }

    @Test("a start body is parsed once: the start guard and the route get the value the table read")
    func startParsedOnce() async throws {
        var configuration = ServerConfiguration()
        configuration.dev = true
        let layer = SecurityLayer(configuration: configuration, store: InMemoryStore(),
                                  secrets: ServerSecrets(master: Array(repeating: 5, count: 32)), clock: ManualClock(), log: SecurityLog { _ in })
        var table = RouteTable(metrics: Metrics(), gate: layer.gate)
        let reads = Mutex(0)
        let seen = Mutex<String?>(nil)
        table.add("POST", "/v1/verifications", .write, reading: { request in
            reads.withLock { $0 += 1 }
            return StartSubmission(body: request.body, allowVirtualRange: false)
        }, starting: { _, submission in
            seen.withLock { $0 = submission.parsedNumber?.e164 }
            return .empty(status: 204)
        })
        let body = Array(#"{"phone_number":"07911 123456","country":"GB"}"#.utf8)
        let reply = await table.router.handle(HTTPRequest(method: "POST", path: "/v1/verifications", body: body))
        #expect(reply.status == 204)
        #expect(reads.withLock { $0 } == 1)
        #expect(seen.withLock { $0 } == Self.number, "the route sees the number normalised once")
    }

    @Test("the start guard judges the number the route verifies: a national number with a country hint meets the deny list as E.164")
    func startGuardSeesNormalisedNumber() async throws {
        try await SecurityCalls.test(configure: { $0.security.destinations.deniedPrefixes = ["+4479111"] }) { server in
            let refused = try await server.request("POST", "/v1/verifications", json: ["phone_number": "07911 123456", "country": "GB"])
            #expect(refused.status == 403)
            #expect(refused.type == "destination-denied")
            #expect(server.sender.count == 0)
        }
    }

    @Test("a start whose body the route refuses spends nothing of its number's start limit; the created one does")
    func refusedBodyNotCounted() async throws {
        try await SecurityCalls.test(configure: { $0.security.verificationsPerNumber = .init(1, per: 86_400) }) { server in
            let bad = try await server.request("POST", "/v1/verifications", json: ["phone_number": Self.number, "colour": "red"])
            #expect(bad.status == 422)
            let created = try await server.start(Self.number)
            #expect(created.status == 202)
            let id = try #require(created.json["request_id"] as? String)
            _ = try await server.request("DELETE", "/v1/verifications/\(id)")
            #expect(try await server.start(Self.number).status == 429)
        }
    }
}
