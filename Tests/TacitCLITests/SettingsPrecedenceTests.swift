import Foundation
import TacitCLI
import TacitServer
import Testing
import TacitTesting

/// Where each setting comes from: its flag, else its `TACIT_*` variable, else its line in
/// the config file, else the default.
@Suite("Settings precedence", .timeLimit(.minutes(1)))
struct SettingsPrecedenceTests {
    /// A config file holding `lines`, removed with its directory by the caller.
    static func config(_ lines: [String], in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("tacit.conf").path
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("with nothing given, every setting has its default")
    func defaults() throws {
        let configuration = try ServerSettings.configuration([], environment: [:])
        let defaults = ServerConfiguration()
        #expect(configuration.host == defaults.host && configuration.port == defaults.port)
        #expect(configuration.databasePath == defaults.databasePath && configuration.databaseURL == nil)
        #expect(configuration.retentionDays == defaults.retentionDays && !configuration.dev)
    }

    @Test("a flag beats its variable, a variable beats its config line, a config line beats the default")
    func precedence() throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.config(["# a comment", "TACIT_PORT = 7001", "TACIT_HOST=127.0.0.3",
                                    "TACIT_RETENTION_DAYS=7", "TACIT_DB=/tmp/from-file.db"], in: directory)
        let environment = ["TACIT_CONFIG": file, "TACIT_PORT": "7002", "TACIT_HOST": "127.0.0.4"]
        let configuration = try ServerSettings.configuration(["--port", "7003"], environment: environment)
        #expect(configuration.port == 7003, "the flag")
        #expect(configuration.host == "127.0.0.4", "the variable")
        #expect(configuration.retentionDays == 7 && configuration.databasePath == "/tmp/from-file.db", "the file")
        #expect(configuration.maxInFlight == ServerConfiguration().maxInFlight, "the default")
    }

    @Test("--config names the file before TACIT_CONFIG does; --flag=value is a flag too")
    func configFlag() throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let flagged = try Self.config(["TACIT_PORT=7101"], in: directory)
        let other = directory.appendingPathComponent("other.conf").path
        try Data("TACIT_PORT=7102\n".utf8).write(to: URL(fileURLWithPath: other))
        let byFlag = try ServerSettings.configuration(["--config", flagged], environment: ["TACIT_CONFIG": other])
        #expect(byFlag.port == 7101)
        let inline = try ServerSettings.configuration(["--config=\(other)", "--retention-days=9"], environment: [:])
        #expect(inline.port == 7102 && inline.retentionDays == 9)
    }

    @Test("a bad value is refused whichever source gives it, and a good flag hides a bad variable")
    func badValueBySource() throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.config(["TACIT_PORT=eighty"], in: directory)
        #expect(throws: (any Error).self) { try ServerSettings.configuration(["--port", "eighty"], environment: [:]) }
        let variable = ["TACIT_PORT": "eighty"]
        #expect(throws: (any Error).self) { try ServerSettings.configuration([], environment: variable) }
        #expect(throws: (any Error).self) { try ServerSettings.configuration(["--config", file], environment: [:]) }
        let hidden = try ServerSettings.configuration(["--port", "0"], environment: ["TACIT_PORT": "eighty"])
        #expect(hidden.port == 0)
    }

    @Test("dev mode comes from --dev, TACIT_DEV or its config line, as 1, true or yes")
    func devMode() throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.config(["TACIT_DEV=yes"], in: directory)
        #expect(try ServerSettings.configuration(["--dev"], environment: [:]).dev)
        #expect(try ServerSettings.configuration([], environment: ["TACIT_DEV": "TRUE"]).dev)
        #expect(try ServerSettings.configuration(["--config", file], environment: [:]).dev)
        #expect(!(try ServerSettings.configuration([], environment: ["TACIT_DEV": "0"]).dev))
    }

    @Test("settings with no flag (the drain delay, the send waits) come from a variable before the file")
    func unflagged() throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.config(["TACIT_DRAIN_MS=2000", "TACIT_SEND_WAIT_MS=300", "TACIT_DEV_INBOX_LATENCY_MS=40"],
                                   in: directory)
        let configuration = try ServerSettings.configuration(["--config", file], environment: ["TACIT_DRAIN_MS": "500"])
        #expect(configuration.drainDelay == 0.5)
        #expect(configuration.sendWait == 0.3)
        #expect(configuration.inboxLatencyMilliseconds == 40)
    }

    @Test("--key-file, TACIT_KEY_FILE and a TACIT_KEY_FILE config line each name the file rotate adds a key to")
    func keyFileSetting() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("elsewhere.key").path
        let key = Data((String(repeating: "ef", count: 32) + "\n").utf8)
        _ = FileManager.default.createFile(atPath: file, contents: key, attributes: [.posixPermissions: 0o600])
        let config = try Self.config(["TACIT_KEY_FILE=\(file)"], in: directory)
        let db = ["--db", directory.appendingPathComponent("tacit.db").path]
        let runs = [
            await CommandRun.of(["keys", "rotate", "--key-file", file] + db),
            await CommandRun.of(["keys", "rotate"] + db, environment: ["TACIT_KEY_FILE": file]),
            await CommandRun.of(["keys", "rotate", "--config", config] + db),
        ]
        for run in runs { #expect(run.status == 0, "\(run.err)") }
        #expect(try StoredFiles.keys(in: file).count == 4)
        #expect(try StoredFiles.mode(file) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("tacit.db.key").path))
    }
}
