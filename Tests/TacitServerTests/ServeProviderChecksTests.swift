import Foundation
import Testing

/// `tacit serve`'s start-up checks on provider settings, given as `--config` lines.
@Suite("tacit serve: provider settings that stop the server")
struct ServeProviderChecksTests {
    static let token = "tok" + String(repeating: "4c2a", count: 7)
    static let sid = "AC" + String(repeating: "3b", count: 16)

    /// Runs `tacit serve --config FILE` on a thread of its own (it blocks reading the
    /// pipes), and returns its exit status, standard error and whether the database was created.
    func serve(config lines: [String]) async throws -> (status: Int32, error: String, created: Bool) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-providers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("tacit.conf")
        try (lines.joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
        let db = directory.appendingPathComponent("t.db").path
        let arguments = ["serve", "--port", "0", "--db", db, "--config", config.path]
        let (status, error) = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Int32, String), any Error>) in
            Thread.detachNewThread {
                do {
                    let process = Subprocess()
                    process.executableURL = SecurityKeysCommandTests.binary
                    process.arguments = arguments
                    process.environment = ["PATH": "/usr/bin:/bin"]
                    let err = Pipe()
                    process.standardError = err
                    process.standardOutput = Pipe()
                    try process.run()
                    let error = err.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(returning: (process.terminationStatus, String(decoding: error, as: UTF8.self)))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        return (status, error, FileManager.default.fileExists(atPath: db))
    }

    @Test("a missing credential or a route to an unconfigured provider exits 2 with one line naming the setting, never a value, before creating the database", arguments: [
        (["TACIT_TWILIO_ACCOUNT_SID=\(sid)", "TACIT_TWILIO_FROM=+15005550006"], "TACIT_TWILIO_AUTH_TOKEN"),
        (["TACIT_TWILIO_ACCOUNT_SID=\(sid)", "TACIT_TWILIO_AUTH_TOKEN=\(token)", "TACIT_TWILIO_FROM=+15005550006",
          "TACIT_ROUTE_SMS=twilio,vonage"], "TACIT_ROUTE_SMS"),
        (["TACIT_TWILIO_ACCOUNT_SID=\(sid)", "TACIT_TWILIO_AUTH_TOKEN=\(token)",
          "TACIT_TWILIO_MESSAGING_SERVICE_SID=MG\(String(repeating: "1", count: 32))", "TACIT_ROUTE_VOICE=twilio"], "TACIT_ROUTE_VOICE"),
    ])
    func refused(lines: [String], setting: String) async throws {
        let run = try await serve(config: lines)
        #expect(run.status == 2)
        #expect(!run.created)
        let printed = run.error.split(separator: "\n")
        #expect(printed.count == 1)
        #expect(printed.first?.contains(setting) == true, "\(run.error)")
        #expect(!run.error.contains(Self.token) && !run.error.contains(Self.sid) && !run.error.contains("+15005550006"))
    }
}
