import Foundation
import Testing

/// `tacit serve --retention-days`, its variable and its config line, run as the built binary.
@Suite("Retention setting", .timeLimit(.minutes(1)))
struct RetentionSettingTests {
    @Test("a retention that isn't a whole number of days from 1 is refused by flag and by config line, naming the setting")
    func refusesBadValues() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-retention-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("tacit.conf")
        try "TACIT_RETENTION_DAYS = 0.5\n".write(to: config, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("t.db").path
        for arguments in [["--retention-days", "0"], ["--retention-days", "thirty"], ["--config", config.path]] {
            let run = try await TimelineCLITests.tacit(["serve", "--dev", "--port", "0", "--db", database] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.err.contains("--retention-days must be a whole number of days"), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: database), "nothing was served")
    }
}
