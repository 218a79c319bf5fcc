import Foundation
import TacitCLI
import Testing

/// `tacit keys create|list|revoke|rotate`, run in process against a database file, as an
/// operator would run them.
@Suite("tacit keys", .timeLimit(.minutes(1)))
struct KeysCommandTests {
    @Test("create prints a key once, list never shows it, revoke marks it; the file holds no key")
    func createListRevoke() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path

        let created = await CommandRun.of(["keys", "create", "--name", "ci", "--scopes", "verifications:read",
                                           "--db", db])
        #expect(created.status == 0, "\(created.err)")
        let secret = try #require(created.out.split(separator: "\n").first { $0.hasPrefix("tk_") }.map(String.init))
        let id = try #require(created.out.split(separator: " ").first { $0.hasPrefix("key_") }.map(String.init))

        let listed = await CommandRun.of(["keys", "list", "--db", db])
        #expect(listed.status == 0)
        #expect(listed.out.contains(id))
        #expect(listed.out.contains("verifications:read"))
        #expect(!listed.out.contains(secret))

        #expect(await CommandRun.of(["keys", "revoke", id, "--db", db]).status == 0)
        let rows = await CommandRun.of(["keys", "list", "--db", db]).out.split(separator: "\n")
        let row = try #require(rows.first { $0.hasPrefix(id) })
        #expect(!row.hasSuffix("\t-"))
        let unknown = await CommandRun.of(["keys", "revoke", "key_unknown", "--db", db])
        #expect(unknown.status == 1)
        #expect(unknown.err == "tacit keys: no key has the id key_unknown\n")

        let wal = (try? Data(contentsOf: URL(fileURLWithPath: db + "-wal"))) ?? Data()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db)) + wal
        #expect(bytes.range(of: Data(secret.utf8)) == nil)
        #expect(bytes.range(of: Data(secret.dropFirst(3).utf8)) == nil)
    }

    @Test("wrong usage prints the keys usage to stderr and exits 2", arguments: [
        ["keys"], ["keys", "create"], ["keys", "create", "--name", "x", "--bogus"], ["keys", "revoke"],
        ["keys", "list", "extra"], ["keys", "burn"],
    ])
    func usage(arguments: [String]) async throws {
        let run = await CommandRun.of(arguments)
        #expect(run.status == 2)
        #expect(run.err.contains("Usage: tacit keys"))
        #expect(run.out.isEmpty)
    }

    @Test("a key that can't be made (an unknown scope, a database that can't open) exits non-zero")
    func badScope() async throws {
        let run = await CommandRun.of(["keys", "create", "--name", "x", "--scopes", "admin",
                                       "--db", "/nonexistent-dir/x.db"])
        #expect(run.status != 0)
        #expect(run.out.isEmpty)
    }

    @Test("rotate with TACIT_SECRET set changes no file and says to move the secret to TACIT_OLD_SECRETS")
    func rotateWithSecret() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = await CommandRun.of(["keys", "rotate", "--db", directory.appendingPathComponent("tacit.db").path],
                                      environment: ["TACIT_SECRET": "a-secret-3e1d"])
        #expect(run.status == 1)
        #expect(run.err.contains("TACIT_OLD_SECRETS") && !run.err.contains("a-secret-3e1d"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("rotate before any server made a key file says so and exits 1")
    func rotateWithoutKeyFile() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = await CommandRun.of(["keys", "rotate", "--db", directory.appendingPathComponent("tacit.db").path])
        #expect(run.status == 1)
        #expect(run.err.contains("there is no key file at") && run.err.contains("creates it on first start"))
    }
}
