import Foundation
import Testing
import TacitServer
import TacitStore
import TacitTesting

/// `GET …/events` answers one page at a time and says where the next one starts, so a
/// long timeline is read whole, never cut.
@Suite("Timeline event pages", .timeLimit(.minutes(1)))
struct TimelinePagingTests {
    /// A pending verification with `count` device events, then cancelled: its timeline ends in the summary.
    static func flooded(_ server: TimelineCalls, count: Int) async throws -> String {
        let (id, token) = try await server.start("+99012345670")
        for index in 0..<count {
            let reply = try await server.postDeviceEvent(id, token: token, label: "device:step_\(index % 7)")
            guard reply.status == 201 else { throw TimelineTestError("device event \(index) answered \(reply.status)") }
        }
        try await server.call("DELETE", "/v1/verifications/\(id)")
        return id
    }

    @Test("following next_after with a limit walks every event exactly once, in seq order, ending in the summary", arguments: [1, 5, 7, 48])
    func walk(limit: Int) async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let id = try await Self.flooded(server, count: 40)
            let state = try await server.call("GET", "/v1/verifications/\(id)").json
            #expect(state["status"] as? String == "cancelled")
            let (events, pages) = try await server.allEvents(id, limit: limit)
            let seqs = events.compactMap { $0["seq"] as? Int }
            #expect(seqs.count > 40)
            #expect(seqs == Array(1...seqs.count))
            #expect(pages.dropLast().allSatisfy { $0 == limit })
            #expect((1...limit).contains(pages.last ?? 0))
            #expect(events.last?["label"] as? String == "verification:summary")
        }
    }

    @Test("a read without a limit answers the page size and a next_after while more remain, and null on the last page")
    func defaultPage() async throws {
        try await TimelineCalls.test(.inProcess, configure: { $0.security.timeline.pageSize = 10 }) { server in
            let id = try await Self.flooded(server, count: 12)
            let first = try await server.call("GET", "/v1/verifications/\(id)/events").json
            let events = try #require(first["events"] as? [[String: Any]])
            #expect(events.count == 10)
            #expect(first["next_after"] as? Int == 10)
            let rest = try await server.call("GET", "/v1/verifications/\(id)/events?after=10").json
            let tail = try #require(rest["events"] as? [[String: Any]])
            #expect(tail.first?["seq"] as? Int == 11)
            if rest["next_after"] is NSNull {
                #expect(tail.last?["label"] as? String == "verification:summary")
            } else {
                let next = try #require(rest["next_after"] as? Int)
                #expect(next == tail.last?["seq"] as? Int)
            }
        }
    }

    @Test("a page that ends exactly at the last event says null, not a cursor to an empty page")
    func exactEnd() async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let id = try await Self.flooded(server, count: 3)
            let count = try await server.events(id).count
            let page = try await server.call("GET", "/v1/verifications/\(id)/events?limit=\(count)").json
            #expect((page["events"] as? [[String: Any]])?.count == count)
            #expect(page["next_after"] is NSNull)
        }
    }

    @Test("a limit that is not an integer from 1 to the page size is 422", arguments: ["0", "-1", "abc", "2.5", "", "1001", "99999999999"])
    func badLimit(limit: String) async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let (id, _) = try await server.start("+99012345670")
            let reply = try await server.call("GET", "/v1/verifications/\(id)/events?limit=\(limit)")
            #expect(reply.status == 422)
            #expect((reply.json["invalid_parameters"] as? [[String: String]])?.first?["name"] == "limit")
        }
    }

    @Test("an SSE stream from the start writes every event of a timeline longer than one store read, once each, ending in the summary")
    func streamCatchUp() async throws {
        try await TimelineCalls.test(.live, configure: { $0.security.timeline.deviceEventRate = RateLimit(0, per: 1) }) { server in
            let id = try await Self.flooded(server, count: 500)
            let messages = try await TimelineSSEProbe(server.baseURL, id: id).messages()
            let ids = messages.compactMap(\.id)
            #expect(ids.count > 500)
            #expect(ids == Array(1...ids.count))
            #expect(messages.last?.label == "verification:summary")
        }
    }
}
