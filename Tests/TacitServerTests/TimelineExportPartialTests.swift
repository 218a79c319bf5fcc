import Foundation
import Testing
import TacitServer
import TacitTesting

/// The export of a timeline crowded by device events: it keeps every event the server
/// wrote, the cancel and the summary among them, and says how many device events it left out.
@Suite("Timeline export of a flooded verification", .timeLimit(.minutes(1)))
struct TimelineExportPartialTests {
    @Test("the export of a flooded verification holds every server event and its summary, and says partial with the count left out")
    func flooded() async throws {
        try await TimelineCalls.test(.inProcess, configure: { $0.security.timeline.exportEvents = 20 }) { server in
            let id = try await TimelinePagingTests.flooded(server, count: 30)
            let all = try await server.allEvents(id, limit: 1_000).events
            let serverSeqs = all.filter { $0["source"] as? String != "device" }.compactMap { $0["seq"] as? Int }
            let export = try #require(try await server.call("GET", "/v1/verifications/\(id)/timeline").jsonObject)
            let events = try #require(export["events"] as? [[String: Any]])
            let seqs = events.compactMap { $0["seq"] as? Int }
            #expect(events.count == 20)
            #expect(seqs == seqs.sorted())
            #expect(Set(serverSeqs).isSubset(of: Set(seqs)))
            #expect(events.contains { $0["label"] as? String == "api:cancel" })
            #expect(events.last?["label"] as? String == "verification:summary")
            #expect((export["summary"] as? [String: Any])?["status"] as? String == "cancelled")
            #expect(export["partial"] as? Bool == true)
            #expect(export["events_left_out"] as? Int == all.count - 20)
            // The device events kept are the earliest ones.
            let keptDevice = events.filter { $0["source"] as? String == "device" }.compactMap { $0["seq"] as? Int }
            let firstDevice = all.filter { $0["source"] as? String == "device" }.compactMap { $0["seq"] as? Int }.prefix(keptDevice.count)
            #expect(keptDevice == Array(firstDevice))
        }
    }

    @Test("an export that holds every event says partial false with none left out")
    func whole() async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let id = try await TimelinePagingTests.flooded(server, count: 3)
            let export = try #require(try await server.call("GET", "/v1/verifications/\(id)/timeline").jsonObject)
            #expect((export["events"] as? [[String: Any]])?.count == (try await server.events(id)).count)
            #expect(export["partial"] as? Bool == false)
            #expect(export["events_left_out"] as? Int == 0)
        }
    }

    @Test("an export still holds the summary when the server's own events alone fill it")
    func serverEventsNeverCrowdedOut() async throws {
        try await TimelineCalls.test(.inProcess, configure: { $0.security.timeline.exportEvents = 1 }) { server in
            let id = try await TimelinePagingTests.flooded(server, count: 4)
            let serverCount = try await server.allEvents(id, limit: 1_000).events.filter { $0["source"] as? String != "device" }.count
            let export = try #require(try await server.call("GET", "/v1/verifications/\(id)/timeline").jsonObject)
            let events = try #require(export["events"] as? [[String: Any]])
            #expect(events.count == serverCount)
            #expect(events.allSatisfy { $0["source"] as? String != "device" })
            #expect(events.last?["label"] as? String == "verification:summary")
            #expect(export["events_left_out"] as? Int == 4)
        }
    }
}
