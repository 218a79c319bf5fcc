import Foundation
import Testing
import TacitCLI
import TacitServer
import TacitTesting

/// `tacit keys rotate` and `tacit keys reseal` against a database a server wrote: what was
/// sealed and hashed before the rotation still opens after it, and after the reseal the
/// old key can go.
@Suite("Key rotation and reseal", .timeLimit(.minutes(1)))
struct KeyRotationTests {
    static let repeated = "+99012345684"
    static let coded = "+99012345685"
    static var start: [String: Any] { ["phone_number": repeated, "workflow": [["channel": "sms"]]] }
    static let idempotency = ["Idempotency-Key": "rotate-1"]

    /// What the first server handed out: the repeatable start's reply, and a pending
    /// verification's id, client token and code.
    struct Issued {
        var reply: [String: Any]
        var coded: (id: String, token: String, code: String)
    }

    static func server<T>(_ db: String, _ body: (TestApplication, TestClient) async throws -> T) async throws -> T {
        try await TestApplication.test(.inProcess, configure: { configuration, _ in configuration.databasePath = db },
                                       body)
    }

    static func issue(_ db: String) async throws -> Issued {
        try await server(db) { _, client in
            let first = try await client.post("/v1/verifications", json: start, headers: idempotency)
            #expect(first.status == 202)
            let (id, started) = try await client.start(coded, channels: ["sms"])
            let code = try #require(try await client.latestCode(coded))
            return Issued(reply: first.json, coded: (id, try #require(started.string("client_token")), code))
        }
    }

    @Test("what was sealed before rotate opens after it; after reseal the old key can go and everything still opens")
    func rotateThenReseal() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let issued = try await Self.issue(db)

        let rotated = await CommandRun.of(["keys", "rotate", "--db", db])
        #expect(rotated.status == 0, "\(rotated.err)")
        let keys = try StoredFiles.keys(in: db + ".key")
        #expect(keys.count == 2)
        #expect(try StoredFiles.mode(db + ".key") == 0o600)

        try await Self.server(db) { _, client in
            let id = issued.reply["request_id"] as? String ?? ""
            #expect(try await client.get("/v1/verifications/\(id)").status == 200)
            let again = try await client.post("/v1/verifications", json: Self.start, headers: Self.idempotency)
            #expect(again.status == 202)
            #expect(again.string("client_token") == issued.reply["client_token"] as? String)
            let path = "/v1/verifications/\(issued.coded.id)"
            let device = client.bearer(issued.coded.token)
            let event = try await device.post(path + "/events", json: ["label": "device:probe"])
            #expect(event.status < 300)
            let checked = try await client.post(path + "/check", json: ["code": issued.coded.code])
            #expect(checked.string("status") == "completed")
        }

        let resealed = await CommandRun.of(["keys", "reseal", "--db", db])
        #expect(resealed.status == 0, "\(resealed.err)")
        #expect(resealed.out.contains("Resealed 2 numbers and 1 stored replies"))
        try Self.keep(keys[0], only: db + ".key")

        let (_, production) = try await RunningCommand.serving(["--port", "0", "--db", db]) { _ in }
        #expect(production.out.contains("Tacit is listening") && production.status == 0, "\(production.err)")
        let newest = ServerSecrets(master: keys[0]).fieldProtection
        let sealed = try StoredFiles.column("phone_sealed", of: "verifications", in: db)
            + StoredFiles.column("body", of: "idempotency", in: db)
        for value in sealed { #expect((try? newest.open(value)) != nil) }
        try await Self.server(db) { _, client in
            let state = try await client.get("/v1/verifications/\(issued.coded.id)")
            #expect(state.status == 200)
        }
    }

    /// Rewrites the key file with `key` alone, as an operator drops the older keys.
    static func keep(_ key: [UInt8], only path: String) throws {
        let hex = key.map { String(format: "%02x", $0) }.joined()
        let text = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("#") || $0 == Substring(hex) }.joined(separator: "\n")
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }
}
