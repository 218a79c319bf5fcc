import Foundation
import TacitCLI
import TacitServer
import TacitStore
import TacitStoreSQLite
import Testing
import TacitTesting

/// `tacit fraud backtest`, run in process against a database file holding a pumping history
/// (docs/cli.md, docs/fraud.md#backtest).
@Suite("tacit fraud backtest", .timeLimit(.minutes(1)))
struct FraudBacktestCommandTests {
    /// A database with an application whose last three hours hold the pumping history, sealed
    /// under the key file `apps create` made; the application's id.
    static func history(_ db: String) async throws -> (id: String, numbers: [String]) {
        let id = try await AppsTemplatesCommandTests.application(db)
        let store = try SQLiteVerificationStore(path: db)
        var configuration = ServerConfiguration()
        configuration.databasePath = db
        store.protect(with: try await ServerSecrets.load(configuration: configuration, store: store).fieldProtection)
        let history = PumpingHistory.verifications(application: id, end: Date().addingTimeInterval(-60))
        for verification in history {
            _ = try await store.insert(verification, events: [], at: verification.createdAt, idempotency: nil)
        }
        return (id, history.map(\.phoneNumber))
    }

    @Test("prints the totals and the attack's prefix with its figures, and no number")
    func text() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let (id, numbers) = try await Self.history(db)
        let run = await CommandRun.of(["fraud", "backtest", id, "--level", "standard", "--db", db])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("Backtest of application \(id) at level standard, the 7 days from "), "\(run.out)")
        #expect(lines[1] == "Replayed 390 starts and 390 sends.")
        #expect(lines[2] == "Would have blocked 140 starts (35.9 %) and 140 sends (35.9 %);"
                + " 1 of the blocked starts had converted.")
        #expect(lines[3] == "Prefix blocks decided: 1.")
        #expect(lines[4] == "")
        #expect(lines[5] == "PREFIX\tRULE\tSTARTS\tCONVERTED\tSENDS SAVED")
        #expect(lines[6] == "+44791113\tprefix_volume\t140\t1\t140")
        #expect(lines.count == 8 && lines[7] == "", "\(run.out)")
        #expect(!numbers.contains { run.out.contains($0) })
    }

    @Test("--json gives the same report as one object; --days 1 and off change what it counts")
    func json() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let (id, _) = try await Self.history(db)
        let run = await CommandRun.of(["fraud", "backtest", id, "--level", "max", "--days", "1", "--json", "--db", db])
        #expect(run.status == 0, "\(run.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(object["application"] as? String == id && object["level"] as? String == "max")
        #expect(object["starts"] as? Int == 390 && object["blocked_starts"] as? Int == 146)
        #expect(object["blocked_converted"] as? Int == 2 && object["blocked_sends"] as? Int == 146)
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.first?["prefix"] as? String == "44791113" && rows.first?["sends_saved"] as? Int == 145)
        #expect(rows.contains { $0["rule"] as? String == "line_type" && $0["prefix"] as? String == "1415" })
        let off = await CommandRun.of(["fraud", "backtest", id, "--level", "off", "--json", "--db", db])
        let offObject = try #require(try JSONSerialization.jsonObject(with: Data(off.out.utf8)) as? [String: Any])
        #expect(offObject["blocked_starts"] as? Int == 0 && (offObject["rows"] as? [Any])?.isEmpty == true)
    }

    @Test("changes nothing in the database: every row of every table is the same afterwards")
    func readOnly() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let (id, _) = try await Self.history(db)
        let before = try Self.everyRow(db)
        let keyFile = try Data(contentsOf: URL(fileURLWithPath: db + ".key"))
        #expect(await CommandRun.of(["fraud", "backtest", id, "--level", "max", "--db", db]).status == 0)
        #expect(try Self.everyRow(db) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: db + ".key")) == keyFile)
        let missing = directory.appendingPathComponent("none.db").path
        let absent = await CommandRun.of(["fraud", "backtest", id, "--level", "max", "--db", missing])
        #expect(absent.status == 1 && !FileManager.default.fileExists(atPath: missing), "\(absent.err)")
    }

    @Test("an unknown application or level exits 1 with a message; misuse exits 2")
    func refusals() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let id = try await AppsTemplatesCommandTests.application(db)
        let level = await CommandRun.of(["fraud", "backtest", id, "--level", "high", "--db", db])
        #expect(level.status == 1 && level.err.contains("--level must be off, basic, standard or max"), "\(level.err)")
        let app = await CommandRun.of(["fraud", "backtest", "app_none", "--level", "max", "--db", db])
        #expect(app.status == 1 && app.err.contains("no application has the id app_none"), "\(app.err)")
        for misuse in [["fraud", "backtest", id, "--db", db], ["fraud", "backtest", "--level", "max", "--db", db],
                       ["fraud", "backtest", id, "extra", "--level", "max", "--db", db],
                       ["fraud", "backtest", id, "--level", "max", "--days", "0", "--db", db],
                       ["fraud", "backtest", id, "--level", "max", "--days", "a week", "--db", db],
                       ["fraud", "blocks", "list", id, "--level", "max", "--db", db]] {
            #expect(await CommandRun.of(misuse).status == 2, "\(misuse)")
        }
    }

    /// Every row of every table of the file, in a stable order.
    static func everyRow(_ path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, options: SQLiteOptions(readOnly: true))
        defer { connection.close() }
        var rows: [String] = []
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .map { try $0.string("name") }
        for table in tables {
            for row in try connection.query(SQL(stringLiteral: "SELECT * FROM \(table)")) {
                rows.append(table + ":" + row.values.map { "\($0)" }.joined(separator: "|"))
            }
        }
        return rows.sorted()
    }
}
