import Foundation
import Testing
import TacitServer
import TacitTesting

/// `tacit keys reseal --database-url` on the throwaway PostgreSQL cluster: what a server
/// sealed under the old secret is sealed again under the new one, after which the new
/// secret alone starts a production server and opens everything.
@Suite("Reseal on PostgreSQL (the built binary)", .enabled(if: PostgresCluster.enabled), .timeLimit(.minutes(1)))
struct PostgresResealTests {
    static let old = "pg-reseal-old-secret"
    static let new = "pg-reseal-new-secret"
    static let repeated = "+99012345686"
    static var start: [String: Any] { ["phone_number": repeated, "workflow": [["channel": "sms"]]] }

    /// An in-process server on the database at `url` with `secret` (and `old` secrets).
    static func server<T>(_ url: String, secret: String, old: [String] = [],
                          _ body: (TestApplication, TestClient) async throws -> T) async throws -> T {
        try await TestApplication.test(.inProcess, store: PostgresCluster.openStore(url: url), configure: { configuration, _ in
            configuration.secret = secret
            configuration.oldSecrets = old
        }, body)
    }

    @Test("reseal with --database-url seals every number and reply under the new secret, and the old one can then go")
    func resealOnPostgres() async throws {
        let url = try await PostgresCluster.shared().makeDatabase()
        let first = try await Self.server(url, secret: Self.old) { _, client in
            let reply = try await client.post("/v1/verifications", json: Self.start, headers: ["Idempotency-Key": "pg-reseal-1"])
            #expect(reply.status == 202)
            _ = try await client.start("+99012345687", channels: ["sms"])
            return reply.json
        }
        let store = ["--database-url", url, "--secret", Self.new]
        let refused = try await KeyFixtures.serveUntilListening(["--port", "0"] + store)
        #expect(!refused.out.contains("Tacit is listening"), "before the reseal the new secret alone is refused")

        let resealed = try await KeyFixtures.tacit(["keys", "reseal", "--old-secrets", Self.old] + store)
        #expect(resealed.status == 0, "\(resealed.err)")
        #expect(resealed.out.contains("Resealed 2 numbers and 1 stored replies"))
        #expect(!resealed.out.contains(Self.repeated) && !resealed.err.contains(Self.repeated))

        let production = try await KeyFixtures.serveUntilListening(["--port", "0"] + store)
        #expect(production.out.contains("Tacit is listening"), "\(production.err)")
        // Idempotency keys are found by their hash under every key of the ring, so the repeat
        // is asked while both secrets are given; its stored reply was sealed under the new one.
        try await Self.server(url, secret: Self.new, old: [Self.old]) { _, client in
            let again = try await client.post("/v1/verifications", json: Self.start, headers: ["Idempotency-Key": "pg-reseal-1"])
            #expect(again.status == 202)
            #expect(again.string("client_token") == first["client_token"] as? String)
        }
        try await Self.server(url, secret: Self.new) { _, client in
            let state = try await client.get("/v1/verifications/\(first["request_id"] as? String ?? "")")
            #expect(state.status == 200, "the new secret alone opens the stored number")
        }
    }
}
