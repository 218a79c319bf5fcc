import Foundation
import TacitCLI
import Testing
import TacitTesting

/// `tacit apps templates set|list|delete` and `tacit apps set --sms-app-hash --sms-origin`,
/// run in process against a database file (docs/cli.md).
@Suite("tacit apps templates", .timeLimit(.minutes(1)))
struct AppsTemplatesCommandTests {
    static func application(_ db: String) async throws -> String {
        try #require(try await AppsCommandTests.created(db)["id"] as? String)
    }

    @Test("set stores a template and says its SMS encoding; list shows encoding and segments; delete removes it")
    func setListDelete() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await Self.application(db)
        let set = await CommandRun.of(["apps", "templates", "set", id, "--channel", "sms", "--locale", "DE",
                                       "Ihr {{brand}}-Code: {{code}}", "--db", db])
        #expect(set.status == 0, "\(set.err)")
        #expect(set.out.contains("GSM-7, 1 segment"))
        let japanese = await CommandRun.of(["apps", "templates", "set", id, "--channel", "sms", "--locale", "ja",
                                            "{{code}} " + String(repeating: "認証コード", count: 14), "--db", db])
        #expect(japanese.status == 0, "\(japanese.err)")
        let listed = await CommandRun.of(["apps", "templates", "list", id, "--db", db])
        #expect(listed.status == 0, "\(listed.err)")
        let rows = listed.out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.first == ["CHANNEL", "LOCALE", "ENCODING", "SEGMENTS", "UPDATED", "BODY"])
        #expect(rows.dropFirst().map { Array($0.prefix(4)) } == [["sms", "de", "GSM-7", "1"], ["sms", "ja", "UCS-2", "2"]])
        #expect(rows[1].last == "Ihr {{brand}}-Code: {{code}}")
        let deleted = await CommandRun.of(["apps", "templates", "delete", id, "--channel", "sms", "--locale", "de",
                                           "--db", db])
        #expect(deleted.status == 0, "\(deleted.err)")
        let again = await CommandRun.of(["apps", "templates", "delete", id, "--channel", "sms", "--locale", "de",
                                         "--db", db])
        #expect(again.status == 1)
        let after = await CommandRun.of(["apps", "templates", "list", id, "--db", db])
        #expect(after.out.split(separator: "\n").count == 2)
    }

    @Test("set refuses a template without {{code}}, with an unknown placeholder or for a locale Tacit can't serve")
    func refusals() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await Self.application(db)
        for (locale, text, reason) in [("de", "no code", "must contain {{code}}"),
                                       ("de", "{{code}} {{who}}", "unknown placeholder {{who}}"),
                                       ("xx-zz", "{{code}}", "locale is not a locale Tacit has messages for")] {
            let run = await CommandRun.of(["apps", "templates", "set", id, "--channel", "sms", "--locale", locale,
                                           text, "--db", db])
            #expect(run.status == 1 && run.err.contains(reason), "\(run.err)")
        }
        let missing = await CommandRun.of(["apps", "templates", "set", id, "--channel", "sms", "{{code}}",
                                           "--db", db])
        #expect(missing.status == 2 && missing.err.contains("--channel and --locale"))
        let unknown = await CommandRun.of(["apps", "templates", "list", "app_none", "--db", db])
        #expect(unknown.status == 1 && unknown.err.contains("no application has the id app_none"))
    }

    @Test("apps set keeps the SMS app hash and origin, shows them in list, and refuses malformed ones")
    func autofillSettings() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await Self.application(db)
        let set = await CommandRun.of(["apps", "set", id, "--sms-app-hash", "FA+9qCX9VSu", "--sms-origin",
                                       "shop.example.com", "--db", db])
        #expect(set.status == 0, "\(set.err)")
        let listed = await CommandRun.of(["apps", "list", "--db", db])
        let row = try #require(listed.out.split(separator: "\n").first { $0.hasPrefix(id) }.map(String.init))
        #expect(row.contains("\tFA+9qCX9VSu\tshop.example.com"))
        let badHash = await CommandRun.of(["apps", "set", id, "--sms-app-hash", "FA+9qCX9VS", "--db", db])
        #expect(badHash.status == 1 && badHash.err.contains("--sms-app-hash must be exactly 11 characters"))
        let badOrigin = await CommandRun.of(["apps", "set", id, "--sms-origin", "https://shop.example", "--db", db])
        #expect(badOrigin.status == 1 && badOrigin.err.contains("--sms-origin must be a domain"))
    }
}
