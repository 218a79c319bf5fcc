import Foundation
import Testing
import TacitKit
import TacitServer
import TacitTesting

/// Two dev-mode applications on one PostgreSQL database, as two instances behind a load
/// balancer: the virtual operator's sessions and key and the handsets' inboxes are the
/// store's, so any instance continues what another started (docs/postgres.md#--dev-on-several-instances).
@Suite("Dev state shared by two instances on one PostgreSQL database", .enabled(if: PostgresCluster.enabled), .timeLimit(.minutes(1)))
struct DevStateTwoInstanceTests {
    /// One master secret for both, as instances sharing a database must have.
    static func shared(_ configuration: inout ServerConfiguration, _: inout TacitApplication.Dependencies) {
        configuration.secret = "dev-state-two-instance-secret"
    }

    static func twoInstances(_ body: (SilentCalls, SilentCalls) async throws -> Void) async throws {
        let stores = try await PostgresCluster.makeInstances(2, migrated: false)
        try await TestApplication.test(.live, store: stores[0], configure: shared) { a, clientA in
            try await TestApplication.test(.live, store: stores[1], configure: shared) { b, clientB in
                try await body(SilentCalls(app: a, client: clientA), SilentCalls(app: b, client: clientB))
            }
        }
    }

    static func port(_ calls: SilentCalls) -> Int { calls.base.port! }

    /// The SDK's device flow from a cellular address, each hop sent where `port` says.
    static func device(_ started: [String: Any], submitTo calls: SilentCalls, port: @escaping @Sendable (URL) -> Int?) async -> SilentAuthResult {
        await SilentAuth.run(checkURL: URL(string: started["check_url"] as! String)!, requestId: started["request_id"] as! String,
                             clientToken: started["client_token"] as! String, baseURL: calls.base,
                             transport: RehostingTransport(inner: SilentCalls.cellular, port: port), apiTransport: SilentCalls.api)
    }

    @Test("a check URL opened through one instance whose operator hop, callback and code go through the other completes")
    func silentFlowAcrossInstances() async throws {
        try await Self.twoInstances { a, b in
            let started = try await a.start("+99012345670").body
            let id = try #require(started["request_id"] as? String)
            let checkPath = URL(string: started["check_url"] as! String)!.path
            let other = Self.port(b)
            let result = await Self.device(started, submitTo: b) { $0.path == checkPath ? nil : other }
            #expect(result == .submitted)
            #expect(try await b.state(id)["status"] as? String == "completed")
            #expect(try await a.state(id)["status"] as? String == "completed")
        }
    }

    @Test("a verdict the operator signed on one instance is verified on the other: both sign with the store's one key")
    func verdictSignedByOneVerifiedByTheOther() async throws {
        try await Self.twoInstances { a, b in
            let started = try await a.start("+99012345670").body
            let id = try #require(started["request_id"] as? String)
            let other = Self.port(b)
            // The check and the operator's gateway on A, the callback and the code on B.
            let result = await Self.device(started, submitTo: b) { $0.path.hasPrefix("/v1/silent/callback") ? other : nil }
            #expect(result == .submitted)
            #expect(try await b.state(id)["status"] as? String == "completed")
        }
    }

    @Test("a code sent through one instance is in both instances' inboxes, and the other accepts it")
    func inboxAcrossInstances() async throws {
        try await Self.twoInstances { a, b in
            let (id, reply) = try await a.client.start("+99012345671", channels: ["sms"])
            #expect(reply.status == 202)
            // Either instance's send worker may take the send: the message is in both inboxes anyway.
            let codeOnA = try await a.client.latestCode("+99012345671")
            let codeOnB = try await b.client.latestCode("+99012345671")
            let code = try #require(codeOnB)
            #expect(codeOnA == code)
            let checked = try await b.check(id, code: code)
            #expect(checked.status == 200)
            #expect(checked.body["status"] as? String == "completed")
        }
    }
}
