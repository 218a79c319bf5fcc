import Foundation
import Testing

/// Where the key file is, told as `tacit serve` is told anything: flag, variable or
/// config line. `tacit keys rotate` shows which file was used by adding a key to it.
@Suite("The key file setting (the built binary)", .timeLimit(.minutes(1)))
struct KeySettingsCLITests {
    @Test("--key-file, TACIT_KEY_FILE and a TACIT_KEY_FILE config line each name the file rotate adds a key to")
    func keyFileSetting() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("elsewhere.key").path
        _ = FileManager.default.createFile(atPath: file, contents: Data((String(repeating: "ef", count: 32) + "\n").utf8),
                                           attributes: [.posixPermissions: 0o600])
        let config = directory.appendingPathComponent("tacit.conf").path
        try Data("TACIT_KEY_FILE=\(file)\n".utf8).write(to: URL(fileURLWithPath: config))
        let db = ["--db", directory.appendingPathComponent("tacit.db").path]
        let runs = [
            try await KeyFixtures.tacit(["keys", "rotate", "--key-file", file] + db),
            try await KeyFixtures.tacit(["keys", "rotate"] + db, environment: ["TACIT_KEY_FILE": file]),
            try await KeyFixtures.tacit(["keys", "rotate", "--config", config] + db),
        ]
        for run in runs { #expect(run.status == 0, "\(run.err)") }
        #expect(try KeyFixtures.keys(in: file).count == 4)
        #expect(try KeyFixtures.mode(file) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("tacit.db.key").path))
    }

    @Test("rotate with TACIT_SECRET set changes no file and says to move the secret to TACIT_OLD_SECRETS")
    func rotateWithSecret() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await KeyFixtures.tacit(["keys", "rotate", "--db", directory.appendingPathComponent("tacit.db").path],
                                        environment: ["TACIT_SECRET": "a-secret-3e1d"])
        #expect(run.status == 1)
        #expect(run.err.contains("TACIT_OLD_SECRETS") && !run.err.contains("a-secret-3e1d"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
