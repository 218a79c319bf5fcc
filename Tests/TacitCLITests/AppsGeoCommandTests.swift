import Foundation
import TacitCLI
import Testing
import TacitTesting

/// `tacit apps geo` and `tacit apps show`, run in process against a database file (docs/cli.md).
@Suite("tacit apps geo and show", .timeLimit(.minutes(1)))
struct AppsGeoCommandTests {
    @Test("geo sets a channel's countries and mode, show lists them, --allow-all removes the list")
    func setShowRemove() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await AppsTemplatesCommandTests.application(db)
        let store = ["--db", db]
        let sms = await CommandRun.of(["apps", "geo", id, "--channel", "sms", "--allow", "us,GB,DE"] + store)
        #expect(sms.status == 0 && sms.out.contains("DE, GB, US only (enforce"), "\(sms.out)\(sms.err)")
        let voice = await CommandRun.of(["apps", "geo", id, "--channel", "voice", "--allow", "GB", "--mode", "monitor"]
                                            + store)
        #expect(voice.status == 0 && voice.out.contains("monitor"), "\(voice.err)")
        let shown = await CommandRun.of(["apps", "show", id] + store)
        #expect(shown.status == 0, "\(shown.err)")
        #expect(shown.out.contains("  sms: DE,GB,US (enforce)") && shown.out.contains("  voice: GB (monitor)")
                    && shown.out.contains("  whatsapp: every country")
                    && shown.out.contains("  silent_auth: every country"), "\(shown.out)")
        #expect(shown.out.contains("Application \(id)") && shown.out.contains("test numbers: none"), "\(shown.out)")
        let all = await CommandRun.of(["apps", "geo", id, "--channel", "sms", "--allow-all"] + store)
        #expect(all.status == 0 && all.out.contains("every country again"), "\(all.err)")
        #expect(await CommandRun.of(["apps", "show", id] + store).out.contains("  sms: every country"))
    }

    @Test("show gives the protection level: basic until apps set --fraud-level changes it")
    func showsFraudLevel() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await AppsTemplatesCommandTests.application(db)
        #expect(await CommandRun.of(["apps", "show", id, "--db", db]).out.contains("fraud level: basic"))
        let set = await CommandRun.of(["apps", "set", id, "--fraud-level", "standard", "--db", db])
        #expect(set.status == 0, "\(set.err)")
        let shown = await CommandRun.of(["apps", "show", id, "--db", db])
        #expect(shown.out.contains("fraud level: standard"), "\(shown.out)")
    }

    @Test("geo refuses an unknown country, email and a bad mode; a missing flag or ID is a usage error",
          arguments: [
              (["--channel", "sms", "--allow", "UK"], Int32(1), "UK is not a country code"),
              (["--channel", "sms", "--allow", ","], Int32(1), "at least one country"),
              (["--channel", "email", "--allow", "GB"], Int32(2), "email is not geographic"),
              (["--channel", "sms", "--allow", "GB", "--mode", "log"], Int32(2), "enforce or monitor"),
              (["--channel", "sms"], Int32(2), "--allow COUNTRIES or --allow-all"),
              (["--channel", "sms", "--allow", "GB", "--allow-all"], Int32(2), "go apart"),
              (["--channel", "sms", "--allow-all", "--mode", "monitor"], Int32(2), "--mode goes with --allow"),
              (["--allow", "GB"], Int32(2), "needs --channel"),
              (["--channel", "sms", "--allow", "GB", "--brand", "X"], Int32(2), "geo takes no --brand"),
          ])
    func refusals(flags: [String], status: Int32, message: String) async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await AppsTemplatesCommandTests.application(db)
        let run = await CommandRun.of(["apps", "geo", id] + flags + ["--db", db])
        #expect(run.status == status && run.err.contains(message), "\(run.status) \(run.err)")
    }

    @Test("show names an unknown application; geo flags go with geo only")
    func misuse() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        #expect(await CommandRun.of(["apps", "show", "app_none", "--db", db]).status == 1)
        #expect(await CommandRun.of(["apps", "show", "--db", db]).status == 2)
        let stray = await CommandRun.of(["apps", "list", "--allow", "GB", "--db", db])
        #expect(stray.status == 2 && stray.err.contains("--allow goes with geo"), "\(stray.err)")
    }
}
