import Foundation
import TacitCLI
import Testing

/// `tacit serve` refusing a setting it can't use, by flag, variable or config line: exit 2
/// and a reason naming the setting, before anything is opened. Run in process.
@Suite("Serve settings", .timeLimit(.minutes(1)))
struct ServeSettingTests {
    /// A directory with a config file holding `line`; `serve` flags for a dev server whose
    /// database would be made there.
    struct Setup {
        let directory: URL
        var database: String { directory.appendingPathComponent("t.db").path }
        var config: String { directory.appendingPathComponent("tacit.conf").path }
        var serve: [String] { ["serve", "--dev", "--port", "0", "--db", database] }

        init(configLine line: String) throws {
            directory = try StoreFiles.directory()
            try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: config))
        }

        /// Nothing was served: the database was never created.
        func expectNothingOpened() {
            #expect(!FileManager.default.fileExists(atPath: database), "nothing was served")
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test("a drain delay that isn't 0 to 60000 whole milliseconds stops serve with exit 2, not quoting the value")
    func drain() async throws {
        let setup = try Setup(configLine: "TACIT_DRAIN_MS = 1.5")
        defer { setup.expectNothingOpened() }
        let runs = [
            await CommandRun.of(setup.serve, environment: ["TACIT_DRAIN_MS": "-1"]),
            await CommandRun.of(setup.serve, environment: ["TACIT_DRAIN_MS": "98765"]),
            await CommandRun.of(setup.serve + ["--config", setup.config]),
        ]
        for run in runs {
            #expect(run.status == 2)
            let reason = run.err.split(separator: "\n").first ?? ""
            #expect(reason.contains("TACIT_DRAIN_MS") && reason.contains("whole number of milliseconds"))
            #expect(!reason.contains("98765") && !reason.contains("1.5"), "the reason quotes no value")
        }
    }

    @Test("a send wait or inbox latency that isn't 0 to 10000 whole milliseconds stops serve, not quoting the value")
    func sends() async throws {
        let setup = try Setup(configLine: "TACIT_SEND_WAIT_MS = 0.25")
        defer { setup.expectNothingOpened() }
        let runs: [(setting: String, run: CommandRun)] = [
            ("TACIT_SEND_WAIT_MS", await CommandRun.of(setup.serve, environment: ["TACIT_SEND_WAIT_MS": "-1"])),
            ("TACIT_SEND_WAIT_MS", await CommandRun.of(setup.serve, environment: ["TACIT_SEND_WAIT_MS": "98765"])),
            ("TACIT_SEND_WAIT_MS", await CommandRun.of(setup.serve + ["--config", setup.config])),
            ("TACIT_DEV_INBOX_LATENCY_MS",
             await CommandRun.of(setup.serve, environment: ["TACIT_DEV_INBOX_LATENCY_MS": "slow"])),
        ]
        for (setting, run) in runs {
            #expect(run.status == 2, "\(setting)")
            let reason = run.err.split(separator: "\n").first ?? ""
            #expect(reason.contains(setting) && reason.contains("whole number of milliseconds"), "\(setting)")
            #expect(!reason.contains("98765") && !reason.contains("slow") && !reason.contains("0.25"))
        }
    }

    @Test("a breaker setting that isn't a positive number stops serve by variable and config line, naming it")
    func breaker() async throws {
        let setup = try Setup(configLine: "TACIT_PROVIDER_BREAKER_FAILURES = 0")
        defer { setup.expectNothingOpened() }
        let byFile = await CommandRun.of(setup.serve + ["--config", setup.config])
        #expect(byFile.status == 2)
        #expect(byFile.err.contains("TACIT_PROVIDER_BREAKER_FAILURES: must be a whole number of at least 1"))
        let cooldown = ["TACIT_PROVIDER_BREAKER_COOLDOWN_SECONDS": "soon"]
        let byVariable = await CommandRun.of(setup.serve, environment: cooldown)
        #expect(byVariable.status == 2)
        #expect(byVariable.err.contains("TACIT_PROVIDER_BREAKER_COOLDOWN_SECONDS: must be a number of seconds above 0"))
        #expect(!byVariable.err.contains("soon"))
    }

    @Test("a retention that isn't a whole number of days from 1 is refused by flag and by config line, naming it",
          arguments: [["--retention-days", "0"], ["--retention-days", "thirty"], ["--config"]])
    func retention(arguments: [String]) async throws {
        let setup = try Setup(configLine: "TACIT_RETENTION_DAYS = 0.5")
        defer { setup.expectNothingOpened() }
        let run = await CommandRun.of(setup.serve + arguments + (arguments == ["--config"] ? [setup.config] : []))
        #expect(run.status == 2)
        #expect(run.err.contains("--retention-days must be a whole number of days"))
    }

    @Test("a malformed security or device-event setting prints the serve usage to stderr and exits 2", arguments: [
        ["--rate-sends-per-number", "five"], ["--max-in-flight", "0"], ["--deny-prefixes", "44"],
        ["--max-device-events", "-1"], ["--device-event-burst", "0"], ["--device-event-rate", "fast"],
        ["--port", "70000"], ["--operator-latency", "x"], ["extra"], ["--bogus"],
    ])
    func usage(arguments: [String]) async throws {
        let run = await CommandRun.of(["serve", "--port", "0", "--db", "/nonexistent-dir/x.db"] + arguments)
        #expect(run.status == 2)
        #expect(run.err.contains("Usage: tacit serve"))
        #expect(run.out.isEmpty)
    }

    @Test("a --database-url that is not postgres:// is a usage error, exit 2")
    func wrongScheme() async throws {
        let run = await CommandRun.of(["serve", "--port", "0", "--database-url", "mysql://root@127.0.0.1/tacit"])
        #expect(run.status == 2)
        #expect(run.err.contains("--database-url must be postgres://"))
    }
}
