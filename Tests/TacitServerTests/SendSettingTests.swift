import Foundation
import Testing

/// `TACIT_SEND_WAIT_MS` and `TACIT_DEV_INBOX_LATENCY_MS`, by variable and by config line, run as the built binary.
@Suite("Send settings", .timeLimit(.minutes(1)))
struct SendSettingTests {
    @Test("a send wait or inbox latency that isn't whole milliseconds from 0 to 10000 stops serve with exit 2, naming the setting and not the value")
    func refusesBadValues() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("tacit.conf")
        try "TACIT_SEND_WAIT_MS = 0.25\n".write(to: config, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("t.db").path
        let serve = ["serve", "--dev", "--port", "0", "--db", database]
        let runs: [(setting: String, run: KeyFixtures.Run)] = [
            ("TACIT_SEND_WAIT_MS", try await KeyFixtures.tacit(serve, environment: ["TACIT_SEND_WAIT_MS": "-1"])),
            ("TACIT_SEND_WAIT_MS", try await KeyFixtures.tacit(serve, environment: ["TACIT_SEND_WAIT_MS": "98765"])),
            ("TACIT_SEND_WAIT_MS", try await KeyFixtures.tacit(serve + ["--config", config.path])),
            ("TACIT_DEV_INBOX_LATENCY_MS", try await KeyFixtures.tacit(serve, environment: ["TACIT_DEV_INBOX_LATENCY_MS": "slow"])),
        ]
        for (setting, run) in runs {
            #expect(run.status == 2, "\(setting)")
            let reason = run.err.split(separator: "\n").first ?? ""
            #expect(reason.contains(setting) && reason.contains("whole number of milliseconds"), "\(setting)")
            #expect(!reason.contains("98765") && !reason.contains("slow") && !reason.contains("0.25"), "the reason quotes no value")
        }
        #expect(!FileManager.default.fileExists(atPath: database), "nothing was served")
    }
}
