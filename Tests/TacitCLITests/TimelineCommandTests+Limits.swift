import Foundation
import TacitCLI
import TacitNetworking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TacitTesting

/// `tacit timeline` and `tacit serve` with device-event limits.
extension TimelineCommandTests {
    static let exportFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("console/fixtures/silent-success-5670.json")

    @Test("replaying a partial export says how many device events it left out; an older, whole one says nothing")
    func replayPartial() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.exportFixture))
        var export = try #require(fixture as? [String: Any])
        #expect(export["partial"] == nil)
        let whole = await CommandRun.of(["timeline", "replay", Self.exportFixture.path, "--speed", "1000"])
        #expect(whole.status == 0)
        #expect(!whole.out.contains("Partial export"))
        export["partial"] = true
        export["events_left_out"] = 7
        let file = directory.appendingPathComponent("partial.json")
        try JSONSerialization.data(withJSONObject: export).write(to: file)
        let partial = await CommandRun.of(["timeline", "replay", file.path, "--speed", "1000"])
        #expect(partial.status == 0)
        #expect(partial.out.contains("Partial export: 7 device events were left out"))
        #expect(partial.out.contains("verification:summary"))
    }

    @Test("serve takes --max-device-events: past it a device event is 429 with Retry-After, and the export is whole")
    func serveDeviceEventCap() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let flags = ["--dev", "--port", "0", "--db", directory.appendingPathComponent("t.db").path,
                     "--max-device-events", "2", "--device-event-burst", "5"]
        let (export, run) = try await RunningCommand.serving(flags) { base in
            let created = try await Self.call("POST", base + "/v1/verifications",
                                              json: #"{"phone_number":"+99012345630","workflow":[{"channel":"sms"}]}"#)
            let body = try #require(try JSONSerialization.jsonObject(with: created.data) as? [String: Any])
            let id = try #require(body["request_id"] as? String)
            let token = try #require(body["client_token"] as? String)
            var statuses: [Int] = []
            var retryAfter: String?
            for _ in 0..<3 {
                let posted = try await Self.call("POST", base + "/v1/verifications/\(id)/events",
                                                 json: #"{"label":"device:tapped"}"#, token: token)
                statuses.append(posted.response.statusCode)
                retryAfter = posted.response.value(forHTTPHeaderField: "Retry-After")
            }
            #expect(statuses == [201, 201, 429])
            #expect(retryAfter.flatMap(Int.init) ?? 0 >= 1)
            let json = await CommandRun.of(["timeline", id, "--server", base, "--json"])
            return try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        }
        #expect(export["partial"] as? Bool == false)
        #expect(export["events_left_out"] as? Int == 0)
        #expect(run.status == 0 && run.out.contains("Shutting down"))
    }

    /// One JSON request over loopback, with the device's bearer token when given.
    static func call(_ method: String, _ url: String, json: String,
                     token: String? = nil) async throws -> (data: Data, response: HTTPURLResponse) {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = Data(json.utf8)
        let (data, response) = try await URLSession.shared.cancellableData(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }
}
