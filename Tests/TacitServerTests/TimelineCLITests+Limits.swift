import Foundation
import TacitNetworking
import TacitCore
import TacitServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `tacit timeline` and `tacit serve` with device-event limits, run as the built binary, in
/// the CLI suite: its tests run one at a time, since each blocks a thread on a subprocess.
extension TimelineCLITests {
    static let exportFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("console/fixtures/silent-success-5670.json")

    /// Runs blocking work (a subprocess to wait for) on a thread of its own, so it never
    /// holds Swift's cooperative pool while the suite's live servers need it.

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("replaying a partial export says how many device events it left out; a whole one, from before exports could be partial, says nothing")
    func replayPartial() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var export = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.exportFixture)) as? [String: Any])
        #expect(export["partial"] == nil)
        let whole = try await Self.tacit(["timeline", "replay", Self.exportFixture.path, "--speed", "1000"])
        #expect(whole.status == 0)
        #expect(!whole.out.contains("Partial export"))
        export["partial"] = true
        export["events_left_out"] = 7
        let file = directory.appendingPathComponent("partial.json")
        try JSONSerialization.data(withJSONObject: export).write(to: file)
        let partial = try await Self.tacit(["timeline", "replay", file.path, "--speed", "1000"])
        #expect(partial.status == 0)
        #expect(partial.out.contains("Partial export: 7 device events were left out"))
        #expect(partial.out.contains("verification:summary"))
    }

    @Test("serve takes --max-device-events: past it a device event is 429 with Retry-After, and the export says it is whole")
    func serveDeviceEventCap() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, base) = try await Self.serve(directory, flags: ["--max-device-events", "2", "--device-event-burst", "5"])
        defer { server.terminate() }
        let created = try await Self.call("POST", base + "/v1/verifications",
                                                      json: #"{"phone_number":"+99012345630","workflow":[{"channel":"sms"}]}"#)
        let id = try #require(created["request_id"] as? String)
        let token = try #require(created["client_token"] as? String)
        var statuses: [Int] = []
        var retryAfter: String?
        for _ in 0..<3 {
            var request = URLRequest(url: URL(string: base + "/v1/verifications/\(id)/events")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.httpBody = Data(#"{"label":"device:tapped"}"#.utf8)
            let (_, response) = try await URLSession.shared.cancellableData(for: request)
            let http = try #require(response as? HTTPURLResponse)
            statuses.append(http.statusCode)
            retryAfter = http.value(forHTTPHeaderField: "Retry-After")
        }
        #expect(statuses == [201, 201, 429])
        #expect(retryAfter.flatMap(Int.init) ?? 0 >= 1)
        let json = try await Self.tacit(["timeline", id, "--server", base, "--json"])
        let export = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(export["partial"] as? Bool == false)
        #expect(export["events_left_out"] as? Int == 0)
    }

    @Test("serve refuses a malformed device-event setting with usage on stderr and exit 2", arguments: [
        ["--max-device-events", "-1"], ["--device-event-burst", "0"], ["--device-event-rate", "fast"],
    ])
    func badDeviceEventSettings(arguments: [String]) async throws {
        let run = try await Self.tacit(["serve", "--port", "0", "--db", "/nonexistent-dir/x.db"] + arguments)
        #expect(run.status == 2)
        #expect(run.err.contains("Usage: tacit serve"))
    }
}
