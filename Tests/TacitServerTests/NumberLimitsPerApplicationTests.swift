import Foundation
import Testing
import TacitCore
import TacitServer
import TacitStore
import TacitTesting

/// A number's limits are counted per application, under a shared ceiling over all of them
/// (`NumberCounter`): one application's wrong codes, starts and sends never spend
/// another's, while the ceiling still protects the number's owner.
@Suite("Number limits per application", .timeLimit(.minutes(1)))
struct NumberLimitsPerApplicationTests {
    enum Kind: String, CaseIterable, Sendable { case sqlite, memory, postgres }
    static let number = "+447911123456"

    static var kinds: [Kind] { Kind.allCases.filter { $0 != .postgres || PostgresCluster.enabled } }

    /// Two applications with keys on one production server, codes fixed to 123456.
    static func tenants(_ kind: Kind = .sqlite, configure: @escaping (inout SecurityConfiguration) -> Void,
                        _ body: (TestApplication, Calls) async throws -> Void) async throws {
        let store: (any VerificationStore)? = switch kind {
        case .sqlite: nil
        case .memory: InMemoryStore()
        case .postgres: try await PostgresCluster.makeStore().store
        }
        try await TestApplication.test(.inProcess, store: store, configure: { configuration, dependencies in
            configuration.dev = false
            configure(&configuration.security)
            dependencies.codes = .fixed("123456")
        }) { app, client in
            let tenants = try await TenantFixtures.tenants(app)
            try await body(app, Calls(client: client, a: tenants.keyA, b: tenants.keyB))
        }
    }

    struct Calls {
        let client: TestClient
        let a: String
        let b: String

        func start(_ key: String) async throws -> TestResponse {
            try await client.post("/v1/verifications", json: ["phone_number": NumberLimitsPerApplicationTests.number,
                                                              "workflow": [["channel": "sms"]]],
                                  headers: ["Authorization": "Bearer \(key)"])
        }

        func started(_ key: String) async throws -> String {
            let reply = try await start(key)
            return try #require(reply.json["request_id"] as? String, "\(reply.status) \(reply.text)")
        }

        func check(_ key: String, _ id: String, _ code: String) async throws -> TestResponse {
            try await client.post("/v1/verifications/\(id)/check", json: ["code": code],
                                  headers: ["Authorization": "Bearer \(key)"])
        }

        func cancel(_ key: String, _ id: String) async throws -> Int {
            try await client.send("DELETE", "/v1/verifications/\(id)", headers: ["Authorization": "Bearer \(key)"])
                .status
        }
    }

    @Test("application A's wrong codes lock the number for A alone: A's next start is refused up front with 429 and sends nothing, while B's user checks the right code", arguments: kinds)
    func wrongCodesStayWithTheirApplication(kind: Kind) async throws {
        try await Self.tenants(kind, configure: {
            $0.maxConsecutiveFailedChecks = 3
            $0.maxConsecutiveFailedChecksAllApplications = 10
        }) { app, calls in
            let attack = try await calls.started(calls.a)
            for _ in 0..<3 { #expect(try await calls.check(calls.a, attack, "000000").status == 400) }
            let locked = try await calls.check(calls.a, attack, "123456")
            #expect(locked.status == 429)
            #expect(locked.type == "rate-limited")
            #expect(try await calls.cancel(calls.a, attack) == 204)
            let sent = app.sender.count
            let refused = try await calls.start(calls.a)
            #expect(refused.status == 429, "a start while A's checks for the number are locked")
            #expect(refused.type == "rate-limited")
            #expect(refused.header("Retry-After").flatMap(Int.init).map { $0 > 0 } == true)
            #expect(app.sender.count == sent, "no code that could not be checked was sent")

            let user = try await calls.started(calls.b)
            let checked = try await calls.check(calls.b, user, "123456")
            #expect(checked.status == 200, "B's user is not locked out by A: \(checked.text)")
        }
    }

    @Test("the shared ceiling still holds: wrong codes through both applications reaching it lock the number's checks and starts in each")
    func ceilingProtectsTheOwner() async throws {
        try await Self.tenants(configure: {
            $0.maxConsecutiveFailedChecks = 3
            $0.maxConsecutiveFailedChecksAllApplications = 5
        }) { _, calls in
            let first = try await calls.started(calls.a)
            for _ in 0..<3 { #expect(try await calls.check(calls.a, first, "000000").status == 400) }
            let second = try await calls.started(calls.b)
            for _ in 0..<2 { #expect(try await calls.check(calls.b, second, "000000").status == 400) }
            #expect(try await calls.check(calls.b, second, "123456").status == 429, "five over both: the ceiling")
            #expect(try await calls.cancel(calls.b, second) == 204)
            #expect(try await calls.start(calls.b).status == 429)
        }
    }

    @Test("application A's starts and sends spend A's quota for the number, not B's; the ceiling caps both together",
          arguments: kinds)
    func quotasStayWithTheirApplication(kind: Kind) async throws {
        try await Self.tenants(kind, configure: {
            $0.sendsPerNumber = RateLimit(2, per: 600)
            $0.sendsPerNumberAllApplications = RateLimit(3, per: 600)
            $0.verificationsPerNumber = RateLimit(2, per: 86_400)
            $0.verificationsPerNumberAllApplications = RateLimit(100, per: 86_400)
        }) { app, calls in
            for _ in 0..<2 { #expect(try await calls.cancel(calls.a, try await calls.started(calls.a)) == 204) }
            #expect(app.sender.count == 2)
            #expect(try await calls.start(calls.a).status == 429, "A's own quota is spent")
            let user = try await calls.started(calls.b)
            #expect(app.sender.count == 3, "B's user got a code")
            #expect(try await calls.check(calls.b, user, "123456").status == 200)
            #expect(try await calls.start(calls.b).status == 429, "three sends over both: the shared ceiling")
        }
    }
}
