import Foundation
import Testing
import TacitTesting

/// Runs the built `tacit` binary, as an operator would.
@Suite("tacit keys (the built binary)")
struct SecurityKeysCommandTests {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("tacit")
    }

    func tacit(_ arguments: [String]) async throws -> Run {
        try await offThePool { try Self.run(arguments) }
    }

    private static func run(_ arguments: [String]) throws -> Run {
        let process = Subprocess()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self), error: String(decoding: error, as: UTF8.self))
    }

    @Test("create prints a key once, list never shows it, revoke marks it; the file holds no key")
    func createListRevoke() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path

        let created = try await tacit(["keys", "create", "--name", "ci", "--scopes", "verifications:read", "--db", db])
        #expect(created.status == 0, "\(created.error)")
        let secret = try #require(created.output.split(separator: "\n").first { $0.hasPrefix("tk_") }.map(String.init))
        let id = try #require(created.output.split(separator: " ").first { $0.hasPrefix("key_") }.map(String.init))

        let listed = try await tacit(["keys", "list", "--db", db])
        #expect(listed.status == 0)
        #expect(listed.output.contains(id))
        #expect(listed.output.contains("verifications:read"))
        #expect(!listed.output.contains(secret))

        #expect(try await tacit(["keys", "revoke", id, "--db", db]).status == 0)
        let row = try #require(try await tacit(["keys", "list", "--db", db]).output.split(separator: "\n").first { $0.hasPrefix(id) })
        #expect(!row.hasSuffix("\t-"))
        #expect(try await tacit(["keys", "revoke", "key_unknown", "--db", db]).status == 1)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: db)) + ((try? Data(contentsOf: URL(fileURLWithPath: db + "-wal"))) ?? Data())
        #expect(bytes.range(of: Data(secret.utf8)) == nil)
        #expect(bytes.range(of: Data(secret.dropFirst(3).utf8)) == nil)
    }

    @Test("wrong usage prints usage to stderr and exits 2")
    func usage() async throws {
        for arguments in [["keys"], ["keys", "create"], ["keys", "create", "--name", "x", "--bogus"], ["keys", "revoke"]] {
            let run = try await tacit(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.error.contains("Usage: tacit keys"))
        }
        let badScope = try await tacit(["keys", "create", "--name", "x", "--scopes", "admin", "--db", "/nonexistent-dir/x.db"])
        #expect(badScope.status != 0)
    }

    @Test("serve refuses a malformed security setting with usage on stderr and exit 2")
    func serveSettings() async throws {
        for arguments in [["--rate-sends-per-number", "five"], ["--max-in-flight", "0"], ["--deny-prefixes", "44"]] {
            let run = try await tacit(["serve", "--port", "0", "--db", "/nonexistent-dir/x.db"] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.error.contains("Usage: tacit serve"))
        }
    }
}
