import Foundation
import Testing
@testable import TacitServer
import TacitTesting

/// The failed-check guard's run of wrong codes lives in the store, counted in each check's
/// own transaction: two applications on one PostgreSQL database share it.
@Suite("Failed checks counted across instances", .enabled(if: PostgresCluster.enabled), .timeLimit(.minutes(1)))
struct SharedFailedChecksTests {
    static let number = "+447911123456"

    /// Two in-process applications on one database with one secret (the counter's key is
    /// a keyed hash of the number, so both must hash alike), codes fixed to 123456.
    static func twoInstances(limit: Int, _ body: (TestClient, TestClient) async throws -> Void) async throws {
        let stores = try await PostgresCluster.makeInstances(2)
        let configure: (inout ServerConfiguration, inout TacitApplication.Dependencies) -> Void = { configuration, dependencies in
            configuration.secret = "shared-failed-checks-secret"
            configuration.security.maxConsecutiveFailedChecks = limit
            configuration.security.verificationsPerNumber = .init(0, per: 86_400)
            configuration.security.sendsPerNumber = .init(0, per: 600)
            dependencies.codes = .fixed("123456")
        }
        try await TestApplication.test(.inProcess, store: stores[0], configure: configure) { _, a in
            try await TestApplication.test(.inProcess, store: stores[1], configure: configure) { _, b in
                try await body(a, b)
            }
        }
    }

    static func start(_ client: TestClient) async throws -> String {
        let reply = try await client.post("/v1/verifications", json: ["phone_number": number, "workflow": [["channel": "sms"]]])
        return try #require(reply.json["request_id"] as? String, "\(reply.status)")
    }

    static func check(_ client: TestClient, _ id: String, _ code: String) async throws -> TestResponse {
        try await client.post("/v1/verifications/\(id)/check", json: ["code": code])
    }

    @Test("wrong codes for one number through two applications add up: at the limit either refuses the right code with 429")
    func refusalHoldsAcrossInstances() async throws {
        try await Self.twoInstances(limit: 3) { a, b in
            let id = try await Self.start(a)
            #expect(try await Self.check(a, id, "000000").status == 400)
            #expect(try await Self.check(b, id, "000000").status == 400)
            #expect(try await Self.check(a, id, "000000").status == 400)
            for client in [a, b] {
                let refused = try await Self.check(client, id, "123456")
                #expect(refused.status == 429)
                #expect(refused.type == "rate-limited")
            }
        }
    }

    @Test("a right code through one application ends the run the other counted")
    func resetSharedAcrossInstances() async throws {
        try await Self.twoInstances(limit: 3) { a, b in
            let first = try await Self.start(a)
            #expect(try await Self.check(a, first, "000000").status == 400)
            #expect(try await Self.check(a, first, "000000").status == 400)
            #expect(try await Self.check(b, first, "123456").status == 200)
            let second = try await Self.start(b)
            #expect(try await Self.check(a, second, "000000").status == 400)
            #expect(try await Self.check(b, second, "000000").status == 400)
            #expect(try await Self.check(a, second, "123456").status == 200, "the run began again at the right code")
        }
    }
}
