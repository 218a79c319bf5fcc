import Foundation
import Testing
import TacitCLI
import TacitServer
import TacitTesting

/// `tacit keys` and `tacit apps` with `--database-url` on the throwaway PostgreSQL cluster,
/// run in process.
@Suite("tacit keys and apps on PostgreSQL", .enabled(if: PostgresCluster.enabled), .timeLimit(.minutes(1)))
struct PostgresCommandTests {
    static let old = "pg-reseal-old-secret"
    static let new = "pg-reseal-new-secret"
    static let repeated = "+99012345686"
    static var start: [String: Any] { ["phone_number": repeated, "workflow": [["channel": "sms"]]] }
    static let idempotency = ["Idempotency-Key": "pg-reseal-1"]

    /// An in-process server on the database at `url` with `secret` (and `old` secrets).
    static func server<T>(_ url: String, secret: String, old: [String] = [],
                          _ body: (TestApplication, TestClient) async throws -> T) async throws -> T {
        let store = PostgresCluster.openStore(url: url)
        return try await TestApplication.test(.inProcess, store: store, configure: { configuration, _ in
            configuration.secret = secret
            configuration.oldSecrets = old
        }, body)
    }

    /// Whether a production `serve` on the database starts, and what it printed.
    static func serves(_ arguments: [String]) async -> CommandRun {
        let server = RunningCommand(["serve", "--port", "0"] + arguments)
        let out = server.out
        // Either it listens or it ends refusing to: the wait ends both ways.
        _ = try? await within(30) { await out.text(containing: "Tacit is listening") }
        server.interrupt()
        return await server.finish()
    }

    @Test("reseal with --database-url seals every number and reply under the new secret, and the old one can then go")
    func resealOnPostgres() async throws {
        let url = try await PostgresCluster.shared().makeDatabase()
        let first = try await Self.server(url, secret: Self.old) { _, client in
            let reply = try await client.post("/v1/verifications", json: Self.start, headers: Self.idempotency)
            #expect(reply.status == 202)
            _ = try await client.start("+99012345687", channels: ["sms"])
            return reply.json
        }
        let store = ["--database-url", url, "--secret", Self.new]
        let refused = await Self.serves(store)
        #expect(!refused.out.contains("Tacit is listening"), "before the reseal the new secret alone is refused")
        #expect(refused.status == 2)

        let resealed = await CommandRun.of(["keys", "reseal", "--old-secrets", Self.old] + store)
        #expect(resealed.status == 0, "\(resealed.err)")
        #expect(resealed.out.contains("Resealed 2 numbers and 1 stored replies"))
        #expect(!resealed.out.contains(Self.repeated) && !resealed.err.contains(Self.repeated))

        let production = await Self.serves(store)
        #expect(production.out.contains("Tacit is listening"), "\(production.err)")
        // Idempotency keys are found by their hash under every key of the ring, so the repeat
        // is asked while both secrets are given; its stored reply was sealed under the new one.
        try await Self.server(url, secret: Self.new, old: [Self.old]) { _, client in
            let again = try await client.post("/v1/verifications", json: Self.start, headers: Self.idempotency)
            #expect(again.status == 202)
            #expect(again.string("client_token") == first["client_token"] as? String)
        }
        try await Self.server(url, secret: Self.new) { _, client in
            let state = try await client.get("/v1/verifications/\(first["request_id"] as? String ?? "")")
            #expect(state.status == 200, "the new secret alone opens the stored number")
        }
    }

    @Test("apps create, keys create and apps list work on a PostgreSQL database, and list shows no secret")
    func appsAndKeys() async throws {
        let url = try await PostgresCluster.shared().makeDatabase()
        let store = ["--database-url", url, "--secret", "pg-commands-test-secret"]
        let created = await CommandRun.of(["apps", "create", "--name", "Shop", "--json"] + store)
        #expect(created.status == 0, "\(created.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(created.out.utf8)) as? [String: Any])
        let id = try #require(object["id"] as? String), apiKey = try #require(object["api_key"] as? String)
        let key = await CommandRun.of(["keys", "create", "--app", id, "--name", "ci"] + store)
        #expect(key.status == 0, "\(key.err)")
        let listed = await CommandRun.of(["apps", "list"] + store)
        #expect(listed.status == 0)
        #expect(listed.out.split(separator: "\n").contains { $0.hasPrefix(id + "\tShop\t") })
        #expect(!listed.out.contains(apiKey) && !listed.err.contains(apiKey))
    }
}
