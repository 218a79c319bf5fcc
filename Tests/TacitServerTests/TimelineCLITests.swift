import Foundation
import TacitNetworking
import TacitCore
import TacitServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TacitTesting

/// `tacit timeline` run as the built binary against `tacit serve --dev` in a subprocess,
/// whose own output is scanned for secrets too.
@Suite("tacit timeline CLI", .serialized, .timeLimit(.minutes(1)))
struct TimelineCLITests {
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["TACIT_BIN"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/tacit").path
    }()

    struct Run {
        var status: Int32
        var out: String
        var err: String
    }

    /// Runs the binary to completion, off the cooperative pool (see `offThePool`).
    static func tacit(_ arguments: [String]) async throws -> Run {
        let process = try launch(arguments)
        return try await offThePool {
            let out = process.standardOutput!.fileHandleForReading.readDataToEndOfFile()
            let err = process.standardError!.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(status: process.terminationStatus, out: String(decoding: out, as: UTF8.self), err: String(decoding: err, as: UTF8.self))
        }
    }

    static func launch(_ arguments: [String]) throws -> Subprocess {
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build the tacit binary first (swift build)")
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// A dev server on a free port with its own database and `flags`; returns it and its URL.
    static func serve(_ directory: URL, flags: [String] = []) async throws -> (Subprocess, String) {
        let server = try launch(["serve", "--dev", "--port", "0", "--db", directory.appendingPathComponent("t.db").path] + flags)
        let handle = server.standardOutput!.fileHandleForReading
        let text = try await offThePool { () -> String in
            var seen = Data()
            while !String(decoding: seen, as: UTF8.self).contains("Console:") {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                seen += chunk
            }
            return String(decoding: seen, as: UTF8.self)
        }
        let url = try #require(text.split(separator: " ").first { $0.hasPrefix("http://") }.map { String($0.prefix { !$0.isNewline }) })
        return (server, url)
    }

    static func call(_ method: String, _ url: String, json: String? = nil) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = json.map { Data($0.utf8) }
        let (data, _) = try await URLSession.shared.cancellableData(for: request)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    @Test("prints, exports and replays a finished verification, follows a live one, and nothing it or the server prints holds a secret")
    func endToEnd() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, base) = try await Self.serve(directory)
        defer { server.terminate() }
        let number = "+99012345630"
        let created = try await Self.call("POST", base + "/v1/verifications",
                                          json: "{\"phone_number\":\"\(number)\",\"workflow\":[{\"channel\":\"sms\"},{\"channel\":\"voice\"}]}")
        let id = try #require(created["request_id"] as? String)
        let token = try #require(created["client_token"] as? String)
        let follower = try Self.launch(["timeline", id, "--server", base, "--follow"])
        let inbox = try await Self.call("GET", base + "/v1/dev/handsets/%2B99012345630/inbox")
        let body = try #require((inbox["messages"] as? [[String: Any]])?.last?["body"] as? String)
        let code = try #require(TimelineCalls.code(in: body))
        _ = try await Self.call("POST", base + "/v1/verifications/\(id)/check", json: "{\"code\":\"\(code)\"}")

        let followed = try await offThePool {
            let followed = follower.standardOutput!.fileHandleForReading.readDataToEndOfFile()
            follower.waitUntilExit()
            return followed
        }
        #expect(follower.terminationStatus == 0)
        let file = directory.appendingPathComponent("export.json").path
        let printed = try await Self.tacit(["timeline", id, "--server", base, "--export", file])
        let replayed = try await Self.tacit(["timeline", "replay", file, "--speed", "1000"])
        let json = try await Self.tacit(["timeline", id, "--server", base, "--json"])
        #expect(printed.status == 0 && replayed.status == 0 && json.status == 0)
        #expect(printed.out.contains("completed") && printed.out.contains("verification:summary"))
        #expect(labels(printed.out) == labels(replayed.out))
        #expect(labels(String(decoding: followed, as: UTF8.self)) == labels(printed.out))
        #expect(labels(printed.out).count > 6)
        let export = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(export["request_id"] as? String == id)

        server.terminate()
        let (serverOut, serverErr) = try await offThePool {
            (server.standardOutput!.fileHandleForReading.readDataToEndOfFile(), server.standardError!.fileHandleForReading.readDataToEndOfFile())
        }
        let exported = FileManager.default.contents(atPath: file) ?? Data()
        let outputs = [serverOut, serverErr, followed, exported, Data((printed.out + replayed.out + json.out).utf8)]
        for secret in [number, String(number.dropFirst()), token, code] {
            #expect(outputs.allSatisfy { $0.range(of: Data(secret.utf8)) == nil })
        }
    }

    @Test("wrong flags print usage to stderr and exit 2; an unknown id exits 1", arguments: [
        ["timeline"], ["timeline", "vf_x", "--bogus"], ["timeline", "replay"], ["timeline", "replay", "f.json", "--speed", "0"],
        ["timeline", "vf_x", "--speed", "2"], ["timeline", "a", "b"],
    ])
    func usage(arguments: [String]) async throws {
        let run = try await Self.tacit(arguments)
        #expect(run.status == 2)
        #expect(run.err.contains("Usage: tacit timeline"))
        #expect(run.out.isEmpty)
    }

    @Test("an unknown verification id exits 1 with the server's problem")
    func unknownID() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, base) = try await Self.serve(directory)
        defer { server.terminate() }
        let run = try await Self.tacit(["timeline", "vf_unknown", "--server", base])
        #expect(run.status == 1)
        #expect(run.err.contains("Not found"))
    }

    /// The label lines, in order.
    private func labels(_ output: String) -> [String] {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.contains(" ") && $0.contains(":") }
    }
}
