import Foundation
import TacitCLI
import TacitStore
import TacitStoreSQLite
import Testing
import TacitTesting

/// `tacit apps set --fraud-level` and `tacit fraud blocks list|unblock`, run in process against a
/// database file (docs/cli.md).
@Suite("tacit fraud blocks", .timeLimit(.minutes(1)))
struct FraudCommandTests {
    @Test("apps set --fraud-level changes the level apps list shows, and refuses an unknown one")
    func level() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await AppsTemplatesCommandTests.application(db)
        let set = await CommandRun.of(["apps", "set", id, "--fraud-level", "standard", "--db", db])
        #expect(set.status == 0, "\(set.err)")
        let listed = await CommandRun.of(["apps", "list", "--db", db])
        let rows = listed.out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let column = try #require(rows.first?.firstIndex(of: "FRAUD LEVEL"))
        #expect(rows.first { $0.first == id }?[column] == "standard", "\(listed.out)")
        let bad = await CommandRun.of(["apps", "set", id, "--fraud-level", "high", "--db", db])
        #expect(bad.status == 1 && bad.err.contains("--fraud-level must be"), "\(bad.err)")
    }

    @Test("blocks list shows a block in force with its figures, unblock lifts it once, a bad prefix is refused")
    func listAndUnblock() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (db, id) = try await Self.blocked("44791113", rule: "prefix_volume", sends: 12, baseline: 0.8,
                                              in: directory)
        let listed = await CommandRun.of(["fraud", "blocks", "list", id, "--db", db])
        let rows = listed.out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.first == ["PREFIX", "RULE", "UNTIL", "STRIKES", "SENDS", "CONVERSIONS", "BASELINE"])
        #expect(rows.dropFirst().map { $0.enumerated().filter { $0.offset != 2 }.map(\.element) }
                == [["+44791113", "prefix_volume", "1", "12", "0", "0.80"]], "\(listed.out)")
        #expect(await CommandRun.of(["fraud", "blocks", "unblock", id, "+44791113", "--db", db]).status == 0)
        #expect(await CommandRun.of(["fraud", "blocks", "unblock", id, "+44791113", "--db", db]).status == 1)
        let after = await CommandRun.of(["fraud", "blocks", "list", id, "--db", db])
        #expect(after.out.split(separator: "\n").count == 1, "\(after.out)")
        let bad = await CommandRun.of(["fraud", "blocks", "unblock", id, "+44", "--db", db])
        #expect(bad.status == 1 && bad.err.contains("4 to 8 digits"), "\(bad.err)")
        #expect(await CommandRun.of(["fraud", "blocks", "list", "--db", db]).status == 2)
        #expect(await CommandRun.of(["fraud", "blocks", "list", "app_none", "--db", db]).status == 1)
    }

    @Test("a mobile network's block is listed by its key, net:23499, and unblocked by it")
    func networkBlock() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (db, id) = try await Self.blocked("net:23499", rule: "network_volume", sends: 10, baseline: nil,
                                              in: directory)
        let listed = await CommandRun.of(["fraud", "blocks", "list", id, "--db", db])
        let rows = listed.out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.dropFirst().map { [$0[0], $0[1]] } == [["net:23499", "network_volume"]], "\(listed.out)")
        let bad = await CommandRun.of(["fraud", "blocks", "unblock", id, "net:2349", "--db", db])
        #expect(bad.status == 1 && bad.err.contains("5 or 6 digits"), "\(bad.err)")
        #expect(await CommandRun.of(["fraud", "blocks", "unblock", id, "net:23499", "--db", db]).status == 0)
        let after = await CommandRun.of(["fraud", "blocks", "list", id, "--db", db])
        #expect(after.out.split(separator: "\n").count == 1, "\(after.out)")
    }

    /// A database in `directory` with an application whose `prefix` is blocked for an hour from now.
    static func blocked(_ prefix: String, rule: String, sends: Int, baseline: Double?,
                        in directory: URL) async throws -> (db: String, id: String) {
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await AppsTemplatesCommandTests.application(db)
        let now = Date()
        try await SQLiteVerificationStore(path: db).setPrefixBlock(
            PrefixBlock(applicationId: id, prefix: prefix, rule: rule, blockedAt: now,
                        blockedUntil: now.addingTimeInterval(3_600), strikes: 1, sends: sends, conversions: 0,
                        baseline: baseline))
        return (db, id)
    }
}
