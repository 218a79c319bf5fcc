import Foundation
import TacitCLI
import TacitStoreSQLite
import Testing

/// `tacit serve` on SQLite holds its file alone: a second server on it is refused, so a
/// lease found in the file at start can only be a dead server's (docs/deploy.md). Run in process.
@Suite("Serve owns its SQLite file", .timeLimit(.minutes(1)))
struct ServeOwnershipTests {
    @Test("a second serve on a file another serve holds stops at once with exit 1 and why; the first keeps serving")
    func secondServerRefused() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("t.db").path
        let (second, first) = try await RunningCommand.serving(["--dev", "--port", "0", "--db", db]) { base in
            let second = await CommandRun.of(["serve", "--dev", "--port", "0", "--db", db])
            let health = try Data(contentsOf: URL(string: base + "/healthz")!)
            #expect(!health.isEmpty, "the first server still answers")
            return second
        }
        #expect(second.status == 1)
        #expect(second.err.contains("another tacit serve is running on \(db)") && second.err.contains("PostgreSQL"),
                "\(second.err)")
        #expect(!second.out.contains("listening"))
        #expect(first.status == 0, "\(first.err)")
        #expect(FileManager.default.fileExists(atPath: SQLiteServingLock.lockPath(db)))
        let (_, again) = try await RunningCommand.serving(["--dev", "--port", "0", "--db", db]) { _ in }
        #expect(again.status == 0, "the file is free once the first has stopped: \(again.err)")
    }
}
