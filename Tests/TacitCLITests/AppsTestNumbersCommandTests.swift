import Foundation
import TacitCLI
import Testing
import TacitTesting

/// `tacit apps test-numbers add|list|remove`, run in process against a database file (docs/cli.md).
@Suite("tacit apps test-numbers", .timeLimit(.minutes(1)))
struct AppsTestNumbersCommandTests {
    @Test("add stores a number with its code sealed, list shows it without the code, remove deletes it")
    func addListRemove() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await AppsTemplatesCommandTests.application(db)
        let store = ["--db", db, "--secret", "apps-tests-secret"]
        let added = await CommandRun.of(["apps", "test-numbers", "add", id, "+44 7911 123456", "--code", "482913",
                                         "--expires", "30d"] + store)
        #expect(added.status == 0, "\(added.err)")
        #expect(added.out.contains("+447911123456") && !added.out.contains("482913"))
        #expect(!(try StoredFiles.storedValues(db)).contains { $0.contains(bytes: Array("482913".utf8)) })
        let listed = await CommandRun.of(["apps", "test-numbers", "list", id] + store)
        let rows = listed.out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.first == ["NUMBER", "EXPIRES", "ACTIVE", "ADDED"])
        #expect(rows.count == 2 && rows[1][0] == "+447911123456" && rows[1][2] == "yes", "\(listed.out)")
        #expect(!listed.out.contains("482913"))
        let removed = await CommandRun.of(["apps", "test-numbers", "remove", id, "+447911123456"] + store)
        #expect(removed.status == 0, "\(removed.err)")
        let again = await CommandRun.of(["apps", "test-numbers", "remove", id, "+447911123456"] + store)
        #expect(again.status == 1)
    }

    @Test("add refuses a premium-rate number, a code that is not 4 to 10 digits, a missing --code and a bad expiry")
    func refusals() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await AppsTemplatesCommandTests.application(db)
        let store = ["--db", db, "--secret", "apps-tests-secret"]
        let premium = await CommandRun.of(["apps", "test-numbers", "add", id, "+449098765432", "--code", "1234"]
                                          + store)
        #expect(premium.status == 1 && premium.err.contains("premium-rate"), "\(premium.err)")
        let code = await CommandRun.of(["apps", "test-numbers", "add", id, "+447911123456", "--code", "12"] + store)
        #expect(code.status == 1 && code.err.contains("4 to 10 digits"), "\(code.err)")
        let missing = await CommandRun.of(["apps", "test-numbers", "add", id, "+447911123456"] + store)
        #expect(missing.status == 2 && missing.err.contains("--code"))
        let expiry = await CommandRun.of(["apps", "test-numbers", "add", id, "+447911123456", "--code", "1234",
                                          "--expires", "soon"] + store)
        #expect(expiry.status == 2 && expiry.err.contains("--expires"))
    }
}
