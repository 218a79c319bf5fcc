import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TacitNetworking
import Testing
import TacitTesting

/// The built `tacit` binary, for what only a process shows: its exit status, its answer to
/// SIGTERM and SIGINT, its start-up. Everything else is tested in process.
@Suite("The tacit process", .serialized, .timeLimit(.minutes(1)))
struct ProcessTests {
    @Test("usage errors exit 2 with the usage on stderr; --help exits 0 with it on stdout")
    func exitStatuses() async throws {
        let none = try await BuiltBinary.run([])
        #expect(none.status == 2 && none.out.isEmpty)
        #expect(none.err.hasPrefix("tacit: no command given\n\nUsage: tacit COMMAND [OPTIONS]"))
        let help = try await BuiltBinary.run(["--help"])
        #expect(help.status == 0 && help.err.isEmpty && help.out.hasPrefix("Usage: tacit COMMAND [OPTIONS]"))
        let keys = try await BuiltBinary.run(["keys", "create", "--db", "/nonexistent-dir/x.db"])
        #expect(keys.status == 2 && keys.err.contains("Usage: tacit keys"))
        let serve = try await BuiltBinary.run(["serve", "--help"])
        #expect(serve.status == 0 && serve.out.hasPrefix("Usage: tacit serve"))
    }

    @Test("a setting serve can't use exits 2; a command that fails exits 1")
    func failures() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("t.db").path
        let drain = try await BuiltBinary.run(["serve", "--dev", "--port", "0", "--db", db],
                                              environment: ["TACIT_DRAIN_MS": "-1"])
        #expect(drain.status == 2 && drain.err.contains("TACIT_DRAIN_MS"))
        let revoke = try await BuiltBinary.run(["keys", "revoke", "key_unknown", "--db", db])
        #expect(revoke.status == 1 && revoke.err.contains("no key has the id key_unknown"))
    }

    @Test("SIGTERM drains the server and exits 0")
    func terminates() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try BuiltBinary.launch(["serve", "--dev", "--port", "0",
                                             "--db", directory.appendingPathComponent("t.db").path])
        defer { server.terminate() }
        let announced = try await BuiltBinary.read(server, until: "Console:")
        let base = try #require(announced.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http://") })
        let request = URLRequest(url: try #require(URL(string: base + "/readyz")))
        let (ready, _) = try await URLSession.shared.cancellableData(for: request)
        #expect(String(decoding: ready, as: UTF8.self).contains("ready"))
        server.terminate()
        let out = try await offThePool {
            let out = String(decoding: server.standardOutput!.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            server.waitUntilExit()
            return out
        }
        #expect(server.terminationStatus == 0)
        #expect(out.contains("Shutting down"))
    }

    @Test("Ctrl-C at the code prompt cancels the verification before exiting 130")
    func interrupt() async throws {
        let clock = ManualClock(start: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        try await TestApplication.test(.live, clock: clock) { app, client in
            let process = try BuiltBinary.launch(["verify", "+99012345675", "--server", app.baseURL])
            defer { process.terminate() }
            let seen = try await BuiltBinary.read(process, until: "Enter the code sent by SMS")
            let id = try #require(seen.split(separator: " ").first { $0.hasPrefix("vf_") }.map(String.init))
            kill(process.processIdentifier, SIGINT)
            try await offThePool { process.waitUntilExit() }
            #expect(process.terminationStatus == 130)
            #expect(try await client.get("/v1/verifications/\(id)").string("status") == "cancelled")
        }
    }
}
