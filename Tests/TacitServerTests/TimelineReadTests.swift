import Foundation
import Testing
import TacitTesting

@Suite("Timeline reads and export", .timeLimit(.minutes(1)))
struct TimelineReadTests {
    @Test("events come back oldest first after the given seq")
    func eventsAfter() async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let (id, _) = try await server.start("+99012345670")
            let all = try await server.events(id)
            let later = try await server.events(id, after: 2)
            #expect(all.compactMap { $0["seq"] as? Int } == Array(1...all.count))
            #expect(later.compactMap { $0["seq"] as? Int } == Array(3...all.count))
            #expect(all.first?["label"] as? String == "api:create")
        }
    }

    @Test("a bad after is 422 and an unknown id is 404", arguments: ["-1", "abc", "1.5", ""])
    func badParameters(after: String) async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let (id, _) = try await server.start("+99012345670")
            let bad = try await server.call("GET", "/v1/verifications/\(id)/events?after=\(after)")
            #expect(bad.status == 422)
            #expect(bad.json["type"] as? String == "invalid-parameters")
            #expect(try await server.call("GET", "/v1/verifications/vf_unknown/events").status == 404)
            #expect(try await server.call("GET", "/v1/verifications/vf_unknown/timeline").status == 404)
        }
    }

    @Test("the export has the summary, one stage per step with durations, nulls for unused steps, and every event")
    func exportShape() async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let (id, _) = try await server.start("+99012345670", workflow: ["sms", "voice", "whatsapp"])
            server.clock.advance(by: 2.5)
            let code = try #require(try await server.codes("+99012345670").last)
            try await server.call("POST", "/v1/verifications/\(id)/check", json: "{\"code\":\"\(code)\"}")
            let export = try #require(try await server.call("GET", "/v1/verifications/\(id)/timeline").jsonObject)
            #expect(export["request_id"] as? String == id)
            #expect(export["exported_at"] is String)
            let summary = try #require(export["summary"] as? [String: Any])
            #expect(summary["status"] as? String == "completed")
            #expect(summary["duration_ms"] as? Int == 2_500)
            let workflow = summary["workflow"] as? [[String: String]]
            #expect(workflow == [["channel": "sms", "status": "completed"], ["channel": "voice", "status": "unused"],
                                 ["channel": "whatsapp", "status": "unused"]])
            let stages = try #require(export["stages"] as? [[String: Any]])
            #expect(stages.count == 3)
            #expect(stages[0]["duration_ms"] as? Int == 2_500)
            #expect(stages[1]["started_at"] is NSNull && stages[1]["duration_ms"] is NSNull)
            let events = try #require(export["events"] as? [[String: Any]])
            #expect(events.count == (try await server.events(id)).count)
            #expect(events.last?["label"] as? String == "verification:summary")
        }
    }
}
