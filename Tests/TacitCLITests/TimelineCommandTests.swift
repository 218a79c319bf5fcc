import Foundation
import TacitCLI
import Testing
import TacitTesting

/// `tacit timeline`, run in process against a live test server.
@Suite("tacit timeline", .timeLimit(.minutes(1)))
struct TimelineCommandTests {
    @Test("prints, exports and replays a finished verification and follows a live one, and no output holds a secret")
    func endToEnd() async throws {
        try await TestApplication.test(.live) { app, client in
            let directory = try StoreFiles.directory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let base = app.baseURL
            let number = "+99012345630"
            let (id, created) = try await client.start(number, channels: ["sms", "voice"])
            let token = try #require(created.string("client_token"))
            let follower = RunningCommand(["timeline", id, "--server", base, "--follow"])
            let code = try #require(try await client.latestCode(number))
            _ = try await client.post("/v1/verifications/\(id)/check", json: ["code": code])

            let followed = await follower.finish()
            #expect(followed.status == 0, "\(followed.err)")
            let file = directory.appendingPathComponent("export.json").path
            let printed = await CommandRun.of(["timeline", id, "--server", base, "--export", file])
            let replayed = await CommandRun.of(["timeline", "replay", file, "--speed", "1000"])
            let json = await CommandRun.of(["timeline", id, "--json"], environment: ["TACIT_SERVER": base])
            #expect(printed.status == 0 && replayed.status == 0 && json.status == 0)
            #expect(printed.out.contains("completed") && printed.out.contains("verification:summary"))
            #expect(Self.labels(printed.out) == Self.labels(replayed.out))
            #expect(Self.labels(followed.out) == Self.labels(printed.out))
            #expect(Self.labels(printed.out).count > 6)
            let export = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
            #expect(export["request_id"] as? String == id)

            let exported = String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
            let outputs = [followed, printed, replayed, json].flatMap { [$0.out, $0.err] }
                + [exported] + app.securityLogLines
            for secret in [number, String(number.dropFirst()), token, code] {
                #expect(outputs.allSatisfy { !$0.contains(secret) })
            }
        }
    }

    @Test("wrong flags print usage to stderr and exit 2", arguments: [
        ["timeline"], ["timeline", "vf_x", "--bogus"], ["timeline", "replay"],
        ["timeline", "replay", "f.json", "--speed", "0"], ["timeline", "replay", "f.json", "--follow"],
        ["timeline", "vf_x", "--speed", "2"], ["timeline", "a", "b"], ["timeline", "vf_x", "--server", "ftp://x"],
    ])
    func usage(arguments: [String]) async throws {
        let run = await CommandRun.of(arguments)
        #expect(run.status == 2)
        #expect(run.err.contains("Usage: tacit timeline"))
        #expect(run.out.isEmpty)
    }

    @Test("an unknown verification id exits 1 with the server's problem")
    func unknownID() async throws {
        try await TestApplication.test(.live) { app, _ in
            let run = await CommandRun.of(["timeline", "vf_unknown", "--server", app.baseURL])
            #expect(run.status == 1)
            #expect(run.err.contains("Not found"))
        }
    }

    @Test("a file that is no timeline export exits 1 naming the file")
    func notAnExport() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("other.json").path
        try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
        let run = await CommandRun.of(["timeline", "replay", file])
        #expect(run.status == 1)
        #expect(run.err.hasPrefix("tacit: \(file) is not a timeline export"))
    }

    /// The label lines, in order.
    static func labels(_ output: String) -> [String] {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.contains(" ") && $0.contains(":") }
    }
}
