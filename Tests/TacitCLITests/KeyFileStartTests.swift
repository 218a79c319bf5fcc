import Foundation
import Testing
import TacitCLI
import TacitCrypto
import TacitServer
import TacitTesting

/// `tacit serve` in production refusing keys that don't fit: exit 2 and one line that names
/// the setting and the fix, never a key.
@Suite("The key file at serve's start", .timeLimit(.minutes(1)))
struct KeyFileStartTests {
    @Test("a key file that group or others can read is refused with exit 2 and one line naming the file and the fix")
    func exposedFileRefused() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let key = String(repeating: "ab", count: 32)
        _ = FileManager.default.createFile(atPath: db + ".key", contents: Data((key + "\n").utf8),
                                           attributes: [.posixPermissions: 0o640])
        let run = await CommandRun.of(["serve", "--port", "0", "--db", db])
        #expect(run.status == 2)
        #expect(run.err.split(separator: "\n").count == 1)
        #expect(run.err.contains(db + ".key") && run.err.contains("chmod 600"))
        #expect(!run.err.contains(key) && !run.out.contains(key))
    }

    @Test("a production start whose key file is missing or holds another key exits 2 and names TACIT_KEY_FILE")
    func missingOrWrongKeyFile() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try await TestApplication.sealedDatabase(in: directory)
        let file = db + ".key"
        let original = Hex.encode(try #require(try StoredFiles.keys(in: file).first))
        try FileManager.default.removeItem(atPath: file)
        let missing = await CommandRun.of(["serve", "--port", "0", "--db", db])
        #expect(missing.status == 2)
        #expect(missing.err.split(separator: "\n").count == 1 && missing.err.contains("TACIT_KEY_FILE"))
        #expect(!FileManager.default.fileExists(atPath: file), "production made a new key for a sealed database")

        let other = String(repeating: "cd", count: 32)
        _ = FileManager.default.createFile(atPath: file, contents: Data((other + "\n").utf8),
                                           attributes: [.posixPermissions: 0o600])
        let wrong = await CommandRun.of(["serve", "--port", "0", "--db", db])
        #expect(wrong.status == 2)
        #expect(wrong.err.split(separator: "\n").count == 1 && wrong.err.contains("TACIT_KEY_FILE"))
        for run in [missing, wrong] {
            #expect(!run.err.contains(original) && !run.err.contains(other))
        }
    }

    @Test("a production start with another TACIT_SECRET than the database's exits 2, naming it and neither secret")
    func wrongSecret() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try await TestApplication.sealedDatabase(in: directory) { $0.secret = "first-secret-9f2c" }
        #expect(!FileManager.default.fileExists(atPath: db + ".key"))
        let run = await CommandRun.of(["serve", "--port", "0", "--db", db],
                                      environment: ["TACIT_SECRET": "second-secret-71ab"])
        #expect(run.status == 2)
        #expect(run.err.split(separator: "\n").count == 1 && run.err.contains("TACIT_SECRET"))
        #expect(!run.err.contains("first-secret-9f2c") && !run.err.contains("second-secret-71ab"))
    }
}
