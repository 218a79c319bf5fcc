import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TacitTesting

/// `tacit verify` run as the built binary against `tacit serve --dev` in a subprocess.
@Suite("tacit verify CLI", .serialized, .timeLimit(.minutes(1)))
struct VerifyCLITests {
    typealias CLI = TimelineCLITests

    /// A dev server for one test, stopped and removed afterwards.
    static func withServer(_ body: (String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, base) = try await CLI.serve(directory)
        defer { server.terminate() }
        try await body(base)
    }

    /// No full number, client token or inbox code in what the CLI printed.
    static func expectNoSecrets(_ run: CLI.Run, number: String, codes: [String] = []) {
        let text = run.out + run.err
        #expect(!text.contains(number) && !text.contains(String(number.dropFirst())))
        #expect(text.range(of: #"(^|[^A-Za-z0-9_-])ct_[A-Za-z0-9_-]{20,}"#, options: .regularExpression) == nil, "a client token")
        for code in codes { #expect(!text.contains(code)) }
        #expect(text.contains("+99•••••" + number.suffix(4)) || text.isEmpty || run.out.hasPrefix("{"))
    }

    static func inboxCodes(_ base: String, _ number: String) async throws -> [String] {
        let inbox = try await CLI.call("GET", base + "/v1/dev/handsets/\(number.replacingOccurrences(of: "+", with: "%2B"))/inbox")
        let bodies = (inbox["messages"] as? [[String: Any]] ?? []).compactMap { $0["body"] as? String }
        return bodies.compactMap { TimelineCalls.code(in: $0) }
    }

    @Test("an even +990 number completes silently over the cellular path: exit 0")
    func silent() async throws {
        try await Self.withServer { base in
            let run = try await CLI.tacit(["verify", "+99012345670", "--server", base])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("SILENT AUTH ✓  ›  SMS ·  ›  VOICE ·"))
            #expect(run.out.contains("silent_auth:completed") && run.out.contains("verification:summary"))
            Self.expectNoSecrets(run, number: "+99012345670")
        }
    }

    @Test("a rejected SIM falls back to SMS and --auto-code completes it: exit 0")
    func autoCode() async throws {
        try await Self.withServer { base in
            let run = try await CLI.tacit(["verify", "+99012345671", "--server", base, "--auto-code"])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("SILENT AUTH ✗  ›  SMS ✓  ›  VOICE ·"))
            #expect(run.out.contains("silent_auth:rejected"))
            Self.expectNoSecrets(run, number: "+99012345671", codes: try await Self.inboxCodes(base, "+99012345671"))
        }
    }

    @Test("from Wi-Fi the silent check fails and the flow completes by SMS", arguments: ["+99012345699", "+99012345670"])
    func wifi(number: String) async throws {
        try await Self.withServer { base in
            let run = try await CLI.tacit(["verify", number, "--server", base, "--wifi", "--auto-code"])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("SMS ✓"))
            #expect(run.out.contains("device_not_cellular") || run.out.contains("answered the coverage check with an internal error"))
            Self.expectNoSecrets(run, number: number, codes: try await Self.inboxCodes(base, number))
        }
    }

    @Test("a code typed at the prompt completes; a wrong one says how many attempts are left")
    func typedCode() async throws {
        try await Self.withServer { base in
            let number = "+99012345673"
            let process = try Self.launchWithInput(["verify", number, "--server", base])
            let input = process.standardInput!.fileHandleForWriting
            _ = try await Self.readUntil(process, "Enter the code sent by SMS")
            let code = try #require(try await Self.inboxCodes(base, number).last)
            let wrong = code == "000000" ? "111111" : "000000"
            input.write(Data("\(wrong)\n".utf8))
            _ = try await Self.readUntil(process, "attempts left")
            input.write(Data("\(code)\n".utf8))
            let rest = try await offThePool {
                let rest = process.standardOutput!.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return rest
            }
            #expect(process.terminationStatus == 0)
            #expect(String(decoding: rest, as: UTF8.self).contains("SMS ✓"))
        }
    }

    @Test("--json prints exactly one result object on stdout")
    func json() async throws {
        try await Self.withServer { base in
            let run = try await CLI.tacit(["verify", "+99012345672", "--server", base, "--json"])
            #expect(run.status == 0, "\(run.err)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            #expect(run.out.split(separator: "\n").count == 1)
            #expect(Set(object.keys) == ["request_id", "status", "channel", "workflow", "events"])
            #expect(object["status"] as? String == "completed" && object["channel"] as? String == "silent_auth")
            #expect((object["events"] as? Int ?? 0) > 5 && (object["workflow"] as? [Any])?.count == 3)
        }
    }

    @Test("wrong flags print usage to stderr and exit 2", arguments: [
        ["verify"], ["verify", "+99012345670", "--bogus"], ["verify", "12345"], ["verify", "a", "b"],
        ["verify", "+99012345670", "--workflow", "sms,fax"], ["verify", "+99012345670", "--code-length", "x"],
        ["verify", "+99012345670", "--wifi", "--interface", "wwan0"],
    ])
    func usage(arguments: [String]) async throws {
        let run = try await CLI.tacit(arguments)
        #expect(run.status == 2)
        #expect(run.err.contains("Usage: tacit verify"))
        #expect(run.out.isEmpty)
    }

    @Test("an unreachable server exits 1 with a one-line reason")
    func unreachable() async throws {
        let run = try await CLI.tacit(["verify", "+99012345670", "--server", "http://127.0.0.1:1", "--json"])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.split(separator: "\n").count == 1 && run.err.contains("could not be reached"))
    }

    @Test("Ctrl-C at the code prompt cancels the verification before exiting")
    func interrupt() async throws {
        try await Self.withServer { base in
            let process = try Self.launchWithInput(["verify", "+99012345675", "--server", base])
            let seen = try await Self.readUntil(process, "Enter the code sent by SMS")
            let id = try #require(seen.split(separator: " ").first { $0.hasPrefix("vf_") }.map(String.init))
            kill(process.processIdentifier, SIGINT)
            try await offThePool { process.waitUntilExit() }
            #expect(process.terminationStatus == 130)
            let state = try await CLI.call("GET", base + "/v1/verifications/\(id)")
            #expect(state["status"] as? String == "cancelled")
        }
    }

    static func launchWithInput(_ arguments: [String]) throws -> Subprocess {
        try #require(FileManager.default.isExecutableFile(atPath: CLI.binary), "build the tacit binary first (swift build)")
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments
        process.standardInput = Pipe()
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Reads the process's stdout until `marker` shows up (or the output ends).
    static func readUntil(_ process: Subprocess, _ marker: String) async throws -> String {
        let handle = process.standardOutput!.fileHandleForReading
        let seen = try await offThePool { () -> String in
            var seen = ""
            while !seen.contains(marker) {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                seen += String(decoding: chunk, as: UTF8.self)
            }
            return seen
        }
        try #require(seen.contains(marker), "the CLI never printed \(marker)")
        return seen
    }
}
