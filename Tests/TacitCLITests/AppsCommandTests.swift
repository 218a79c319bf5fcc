import Foundation
import TacitCLI
import Testing
import TacitTesting

/// `tacit apps` and `tacit keys create --app`, run in process against a database file, some
/// of them while a server is using that file.
@Suite("tacit apps", .timeLimit(.minutes(1)))
struct AppsCommandTests {
    static func created(_ db: String, name: String = "Shop") async throws -> [String: Any] {
        let run = await CommandRun.of(["apps", "create", "--name", name, "--json", "--db", db])
        #expect(run.status == 0, "\(run.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
    }

    static func matches(_ text: Any?, _ pattern: String) -> Bool {
        guard let text = text as? String else { return false }
        return text.range(of: "^" + pattern + "$", options: .regularExpression) != nil
    }

    @Test("create --json prints exactly one object of the documented shape, with credentials in each provider's format")
    func createJSONShape() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let run = await CommandRun.of(["apps", "create", "--name", "Shop", "--json", "--db", db])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.split(separator: "\n").count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["id", "name", "api_key", "vonage", "twilio"])
        let vonage = try #require(object["vonage"] as? [String: Any])
        let twilio = try #require(object["twilio"] as? [String: Any])
        #expect(Set(vonage.keys) == ["application_id", "api_key", "api_secret"])
        #expect(Set(twilio.keys) == ["account_sid", "auth_token", "service_sid"])
        #expect(object["name"] as? String == "Shop")
        #expect(Self.matches(object["id"], "app_[0-9a-f]{16}"))
        #expect(Self.matches(object["api_key"], "tk_[A-Za-z0-9_-]+"))
        let uuid = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
        #expect(Self.matches(vonage["application_id"], uuid))
        #expect(Self.matches(vonage["api_key"], "[0-9a-f]{8}"))
        #expect(Self.matches(vonage["api_secret"], "[A-Za-z0-9]{16}"))
        #expect(Self.matches(twilio["account_sid"], "AC[0-9a-f]{32}"))
        #expect(Self.matches(twilio["auth_token"], "[0-9a-f]{32}"))
        #expect(Self.matches(twilio["service_sid"], "VA[0-9a-f]{32}"))
    }

    @Test("list shows the application and its settings but no secret, and the database holds none of them")
    func listAndSetWithoutSecrets() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let object = try await Self.created(db)
        let id = try #require(object["id"] as? String)
        let vonage = try #require(object["vonage"] as? [String: String])
        let twilio = try #require(object["twilio"] as? [String: String])
        let secrets = [
            try #require(object["api_key"] as? String), try #require(vonage["api_secret"]),
            try #require(twilio["auth_token"]),
        ]

        let set = await CommandRun.of(["apps", "set", id, "--brand", "ShopCo", "--code-length", "8",
                                       "--channel-timeout", "120", "--vonage-callback-url", "http://127.0.0.1:9/events",
                                       "--db", db])
        #expect(set.status == 0, "\(set.err)")
        let listed = await CommandRun.of(["apps", "list", "--db", db])
        #expect(listed.status == 0)
        let row = try #require(listed.out.split(separator: "\n").first { $0.hasPrefix(id) }.map(String.init))
        #expect(row.contains("\tShop\t") && row.contains("\tShopCo\t8\t120\t"))
        #expect(listed.out.split(separator: "\n").contains { $0.hasPrefix("default\tdefault\t") })
        let stored = try StoredFiles.storedValues(db)
        for secret in secrets {
            #expect(!listed.out.contains(secret) && !listed.err.contains(secret) && !set.out.contains(secret))
            #expect(!stored.contains { $0.contains(bytes: Array(secret.utf8)) })
        }
    }

    @Test("set refuses what a start would refuse, naming the flag; an unknown id exits 1")
    func setValidates() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try #require(try await Self.created(db)["id"] as? String)
        let refused = [("--code-length", "3"), ("--channel-timeout", "901"),
                       ("--brand", String(repeating: "b", count: 19)), ("--brand", "Acme\u{202E}"),
                       ("--brand", "Acme\nShop"), ("--vonage-callback-url", "ftp://x")]
        for (flag, value) in refused {
            let run = await CommandRun.of(["apps", "set", id, flag, value, "--db", db])
            #expect(run.status == 1, "\(flag)")
            #expect(run.err.contains(flag), "\(run.err)")
        }
        #expect(await CommandRun.of(["apps", "revoke", "app_unknown", "--db", db]).status == 1)
        #expect(await CommandRun.of(["keys", "create", "--app", "app_unknown", "--name", "x", "--db", db]).status == 1)
    }

    @Test("create and set register a Vonage public key from a PEM file, refuse other text, and seal the secret")
    func vonageKeyAndSecret() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let pem = directory.appendingPathComponent("public.pem").path
        let junk = directory.appendingPathComponent("junk.pem").path
        let body = Data((0..<270).map { UInt8($0 % 256) }).base64EncodedString(options: .lineLength64Characters)
        try Data("-----BEGIN PUBLIC KEY-----\n\(body)\n-----END PUBLIC KEY-----\n".utf8)
            .write(to: URL(fileURLWithPath: pem))
        try Data("ssh-rsa AAAA\n".utf8).write(to: URL(fileURLWithPath: junk))

        let made = await CommandRun.of(["apps", "create", "--name", "Keyed", "--vonage-public-key", pem, "--json",
                                        "--db", db])
        #expect(made.status == 0, "\(made.err)")
        let object = try JSONSerialization.jsonObject(with: Data(made.out.utf8)) as? [String: Any]
        let id = try #require(object?["id"] as? String)
        let listed = await CommandRun.of(["apps", "list", "--db", db]).out
        #expect(listed.split(separator: "\n").first { $0.hasPrefix(id) }?.hasSuffix("\tregistered") == true)
        let bad = ["apps", "create", "--name", "Bad", "--db", db, "--vonage-public-key"]
        #expect(await CommandRun.of(bad + [junk]).status == 1)
        #expect(await CommandRun.of(bad + [pem + ".missing"]).status == 2)

        let secret = "vonage-signature-secret-0123456789abcdef"
        let set = await CommandRun.of(["apps", "set", id, "--vonage-signature-secret", secret,
                                       "--vonage-public-key", pem, "--secret", "apps-tests-secret", "--db", db])
        #expect(set.status == 0, "\(set.err)")
        #expect(!set.out.contains(secret) && !set.err.contains(secret))
        #expect(!(try StoredFiles.storedValues(db)).contains { $0.contains(bytes: Array(secret.utf8)) })
        let record = "face_credentials WHERE application_id = '\(id)' AND face = 'vonage' AND name = 'signature_secret'"
        let sealed = try StoredFiles.column("bytes", of: record, in: db)
        #expect(sealed.first?.isEmpty == false)
    }

    @Test("wrong usage prints the apps usage to stderr and exits 2", arguments: [
        ["apps"], ["apps", "create"], ["apps", "revoke"], ["apps", "set", "app_x"], ["apps", "list", "--brand", "x"],
        ["apps", "create", "--name", "x", "--brand", "y"], ["apps", "create", "--name", "x", "--bogus"],
    ])
    func usage(arguments: [String]) async throws {
        let run = await CommandRun.of(arguments)
        #expect(run.status == 2)
        #expect(run.err.contains("Usage: tacit apps"))
        #expect(run.out.isEmpty)
    }

    @Test("revoke stops every key of the application in a running server at once, one from keys create --app too")
    func revokeReachesARunningServer() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let db = app.databasePath
            let object = try await Self.created(db)
            let id = try #require(object["id"] as? String)
            let first = try #require(object["api_key"] as? String)
            let made = await CommandRun.of(["keys", "create", "--app", id, "--name", "second", "--db", db])
            #expect(made.status == 0, "\(made.err)")
            let second = try #require(made.out.split(separator: "\n").first { $0.hasPrefix("tk_") }.map(String.init))
            let started = try await keyless.bearer(first).post("/v1/verifications",
                                                               json: ["phone_number": "+99012345674"])
            let request = try #require(started.string("request_id"))
            #expect(try await keyless.bearer(second).get("/v1/verifications/\(request)").status == 200)

            #expect(await CommandRun.of(["apps", "revoke", id, "--db", db]).status == 0)
            for key in [first, second] {
                let client = keyless.bearer(key)
                #expect(try await client.get("/v1/verifications/\(request)").status == 401)
                let start = try await client.post("/v1/verifications", json: ["phone_number": "+99012345676"])
                #expect(start.status == 401)
            }
            #expect(await CommandRun.of(["keys", "create", "--app", id, "--name", "late", "--db", db]).status == 1)
            for secret in [first, second] { #expect(!app.securityLogLines.joined().contains(secret)) }
        }
    }
}
