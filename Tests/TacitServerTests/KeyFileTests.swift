import Foundation
import Testing
import TacitCrypto
import TacitServer
import TacitTesting

/// The key file: created beside the database with mode 0600, used only while no one else
/// may read it, and a production start whose keys don't fit the database refused.
@Suite("The key file and the start check", .timeLimit(.minutes(1)))
struct KeyFileTests {
    /// A database with one verification, sealed by a dev server with `configure`'s keys.
    static func sealedDatabase(in directory: URL, configure: @escaping (inout ServerConfiguration) -> Void = { _ in }) async throws -> String {
        let db = directory.appendingPathComponent("tacit.db").path
        try await TestApplication.test(.inProcess, configure: { configuration, _ in
            configuration.databasePath = db
            configure(&configuration)
        }) { _, client in
            let started = try await client.start("+99012345683", channels: ["sms"])
            #expect(started.reply.status == 202)
        }
        return db
    }

    @Test("the first start creates the key file beside the database with mode 0600, and its key opens the stored number")
    func createdOnFirstStart() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try await Self.sealedDatabase(in: directory)
        let file = db + ".key"
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(try KeyFixtures.mode(file) == 0o600)
        let key = try #require(try KeyFixtures.keys(in: file).first)
        let sealed = try #require(try KeyFixtures.column("phone_sealed", of: "verifications", in: db).first)
        let number = try ServerSecrets(master: key).fieldProtection.open(sealed)
        #expect(String(decoding: number, as: UTF8.self) == "+99012345683")
    }

    @Test("a key file that group or others can read is refused with exit 2 and one line naming the file and the fix")
    func exposedFileRefused() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        let key = String(repeating: "ab", count: 32)
        _ = FileManager.default.createFile(atPath: db + ".key", contents: Data((key + "\n").utf8), attributes: [.posixPermissions: 0o640])
        let run = try await KeyFixtures.tacit(["serve", "--port", "0", "--db", db])
        #expect(run.status == 2)
        let lines = run.err.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(run.err.contains(db + ".key") && run.err.contains("chmod 600"))
        #expect(!run.err.contains(key) && !run.out.contains(key))
    }

    @Test("a production start whose key file is missing or holds another key exits 2 and names TACIT_KEY_FILE, never a key")
    func missingOrWrongKeyFile() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try await Self.sealedDatabase(in: directory)
        let file = db + ".key"
        let original = Hex.encode(try #require(try KeyFixtures.keys(in: file).first))
        try FileManager.default.removeItem(atPath: file)
        let missing = try await KeyFixtures.tacit(["serve", "--port", "0", "--db", db])
        #expect(missing.status == 2)
        #expect(missing.err.split(separator: "\n").count == 1 && missing.err.contains("TACIT_KEY_FILE"))
        #expect(!FileManager.default.fileExists(atPath: file), "production made a new key for a sealed database")

        let other = String(repeating: "cd", count: 32)
        _ = FileManager.default.createFile(atPath: file, contents: Data((other + "\n").utf8), attributes: [.posixPermissions: 0o600])
        let wrong = try await KeyFixtures.tacit(["serve", "--port", "0", "--db", db])
        #expect(wrong.status == 2)
        #expect(wrong.err.split(separator: "\n").count == 1 && wrong.err.contains("TACIT_KEY_FILE"))
        for run in [missing, wrong] {
            #expect(!run.err.contains(original) && !run.err.contains(other))
        }
    }

    @Test("a production start with another TACIT_SECRET than the one that sealed the database exits 2 and names TACIT_SECRET, never either secret")
    func wrongSecret() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try await Self.sealedDatabase(in: directory) { $0.secret = "first-secret-9f2c" }
        #expect(!FileManager.default.fileExists(atPath: db + ".key"))
        let run = try await KeyFixtures.tacit(["serve", "--port", "0", "--db", db], environment: ["TACIT_SECRET": "second-secret-71ab"])
        #expect(run.status == 2)
        #expect(run.err.split(separator: "\n").count == 1 && run.err.contains("TACIT_SECRET"))
        #expect(!run.err.contains("first-secret-9f2c") && !run.err.contains("second-secret-71ab"))
    }
}
