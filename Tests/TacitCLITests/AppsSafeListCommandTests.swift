import Foundation
import TacitCLI
import Testing
import TacitTesting

/// `tacit apps safe-list add|list|remove`, run in process against a database file (docs/cli.md).
@Suite("tacit apps safe-list", .timeLimit(.minutes(1)))
struct AppsSafeListCommandTests {
    @Test("add stores a number in E.164 and a starred prefix, list shows both with their kind, remove deletes one")
    func addListRemove() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await AppsTemplatesCommandTests.application(db)
        let store = ["--db", db]
        let number = await CommandRun.of(["apps", "safe-list", "add", id, "+44 7911 123456"] + store)
        #expect(number.status == 0 && number.out.contains("+447911123456"), "\(number.err)")
        let prefix = await CommandRun.of(["apps", "safe-list", "add", id, "+4477*"] + store)
        #expect(prefix.status == 0, "\(prefix.err)")
        let listed = await CommandRun.of(["apps", "safe-list", "list", id] + store)
        let rows = listed.out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.first == ["ENTRY", "KIND", "ADDED"])
        #expect(rows.dropFirst().map { Array($0.prefix(2)) } == [["+4477*", "prefix"], ["+447911123456", "number"]],
                "\(listed.out)")
        #expect(await CommandRun.of(["apps", "safe-list", "remove", id, "+447911123456"] + store).status == 0)
        #expect(await CommandRun.of(["apps", "safe-list", "remove", id, "+447911123456"] + store).status == 1)
    }

    @Test("add refuses a number that isn't one and a malformed prefix; a missing entry is a usage error")
    func refusals() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await AppsTemplatesCommandTests.application(db)
        let short = await CommandRun.of(["apps", "safe-list", "add", id, "+4477"] + ["--db", db])
        #expect(short.status == 1 && short.err.contains("ends with *"), "\(short.err)")
        let prefix = await CommandRun.of(["apps", "safe-list", "add", id, "44a*"] + ["--db", db])
        #expect(prefix.status == 1 && prefix.err.contains("+4477*"), "\(prefix.err)")
        let missing = await CommandRun.of(["apps", "safe-list", "add", id] + ["--db", db])
        #expect(missing.status == 2, "\(missing.err)")
    }
}
