import Foundation
import Testing

/// `TACIT_DRAIN_MS`, by variable and by config line, run as the built binary. What a drain
/// does is tested on a real `tacit serve` in Tests/providers/test_drain_e2e.py.
@Suite("Drain setting", .timeLimit(.minutes(1)))
struct DrainSettingTests {
    @Test("a drain delay that isn't whole milliseconds from 0 to 60000 stops serve with exit 2, naming the setting and not the value")
    func refusesBadValues() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("tacit.conf")
        try "TACIT_DRAIN_MS = 1.5\n".write(to: config, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("t.db").path
        let serve = ["serve", "--dev", "--port", "0", "--db", database]
        let runs = [
            try await KeyFixtures.tacit(serve, environment: ["TACIT_DRAIN_MS": "-1"]),
            try await KeyFixtures.tacit(serve, environment: ["TACIT_DRAIN_MS": "98765"]),
            try await KeyFixtures.tacit(serve + ["--config", config.path]),
        ]
        for run in runs {
            #expect(run.status == 2)
            let reason = run.err.split(separator: "\n").first ?? ""
            #expect(reason.contains("TACIT_DRAIN_MS") && reason.contains("whole number of milliseconds"))
            #expect(!reason.contains("98765") && !reason.contains("1.5"), "the reason quotes no value")
        }
        #expect(!FileManager.default.fileExists(atPath: database), "nothing was served")
    }
}
