import Foundation
import Testing
import TacitTesting
import TacitCore

@Suite("Timeline SSE stream", .timeLimit(.minutes(1)))
struct TimelineStreamTests {
    static let number = "+99012345670"

    @Test("streams every event in seq order with id lines and ends right after the summary")
    func orderedUntilSummary() async throws {
        try await TimelineCalls.test(.live) { server in
            let (id, _) = try await server.start(Self.number)
            let probe = TimelineSSEProbe(server.baseURL, id: id)
            let first = try await probe.messages { $0.label == "sms:code_sent" }
            let code = try await server.codes(Self.number).last ?? ""
            try await server.call("POST", "/v1/verifications/\(id)/check", json: "{\"code\":\"\(code)\"}")
            let rest = try await probe.messages()
            let all = first + rest
            #expect(all.map(\.id) == Array(1...all.count).map(Optional.some))
            #expect(all.last?.label == "verification:summary")
            #expect(all.contains { $0.label == "sms:completed" })
            #expect(!probe.received.contains("event:"))
        }
    }

    @Test("a reconnect with Last-Event-ID resumes after it with no gap and no duplicate")
    func resumeWithoutGaps() async throws {
        try await TimelineCalls.test(.live) { server in
            let (id, _) = try await server.start(Self.number)
            let early = TimelineSSEProbe(server.baseURL, id: id)
            let seen = try await early.messages { $0.label == "sms:code_sent" }
            early.disconnect()
            // The flow moves on while nobody listens: two wrong codes, then a skip to voice.
            for _ in 0..<2 { try await server.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"000000"}"#) }
            try await server.call("POST", "/v1/verifications/\(id)/next")
            let last = try #require(seen.last?.id)
            let resumed = TimelineSSEProbe(server.baseURL, id: id, lastEventID: last)
            let backlog = try await resumed.messages { $0.label == "voice:code_sent" }
            try await server.call("DELETE", "/v1/verifications/\(id)")
            let live = try await resumed.messages()
            let ids = (seen + backlog + live).compactMap(\.id)
            #expect(ids == Array(1...ids.count))
            #expect(backlog.first?.id == last + 1)
            #expect(live.last?.label == "verification:summary")
        }
    }

    @Test("?after= resumes like Last-Event-ID, and Last-Event-ID wins when both are sent")
    func afterQuery() async throws {
        try await TimelineCalls.test(.live) { server in
            let (id, _) = try await server.start(Self.number)
            try await server.call("DELETE", "/v1/verifications/\(id)")
            let byQuery = try await TimelineSSEProbe(server.baseURL, id: id, after: 3).messages()
            let both = try await TimelineSSEProbe(server.baseURL, id: id, lastEventID: 5, after: 1).messages()
            #expect(byQuery.first?.id == 4)
            #expect(both.first?.id == 6)
            #expect(byQuery.last?.label == "verification:summary")
        }
    }

    @Test("sixty concurrent subscribers each get every event exactly once")
    func manySubscribers() async throws {
        try await TimelineCalls.test(.live) { server in
            let (id, _) = try await server.start(Self.number)
            let probes = (0..<60).map { _ in TimelineSSEProbe(server.baseURL, id: id) }
            let received = try await withThrowingTaskGroup(of: [Int].self) { group in
                for probe in probes { group.addTask { try await probe.messages().compactMap(\.id) } }
                for _ in 0..<3 { try await server.call("POST", "/v1/verifications/\(id)/check", json: #"{"code":"000000"}"#) }
                try await server.call("POST", "/v1/verifications/\(id)/next")
                try await server.call("DELETE", "/v1/verifications/\(id)")
                return try await group.reduce(into: [[Int]]()) { $0.append($1) }
            }
            let total = try await server.events(id).count
            #expect(received.count == 60)
            #expect(received.allSatisfy { $0 == Array(1...total) })
        }
    }

    @Test("a finished verification's stream replays the backlog and ends; resuming after the summary ends at once")
    func finishedStreamsEnd() async throws {
        try await TimelineCalls.test(.live) { server in
            let (id, _) = try await server.start(Self.number)
            try await server.call("DELETE", "/v1/verifications/\(id)")
            let all = try await TimelineSSEProbe(server.baseURL, id: id).messages()
            let last = try #require(all.last?.id)
            let after = try await TimelineSSEProbe(server.baseURL, id: id, lastEventID: last).messages()
            #expect(all.last?.label == "verification:summary")
            #expect(after.isEmpty)
        }
    }

    @Test("an idle stream gets a ping comment every heartbeat interval of the server's clock")
    func heartbeat() async throws {
        try await TimelineCalls.test(.live) { server in
            let (id, _) = try await server.start(Self.number, timeout: 900)
            let probe = TimelineSSEProbe(server.baseURL, id: id)
            _ = try await probe.messages { $0.label == "sms:code_sent" }
            #expect(!probe.received.contains(": ping"))
            server.clock.advance(by: 15)
            #expect(try await probe.waitFor(": ping\n\n"))
            probe.disconnect()
        }
    }

    @Test("a step timeout on the server's clock reaches subscribers as timer:fired then the next step")
    func timeoutEvents() async throws {
        try await TimelineCalls.test(.live) { server in
            let (id, _) = try await server.start(Self.number, timeout: 60)
            let probe = TimelineSSEProbe(server.baseURL, id: id)
            _ = try await probe.messages { $0.label == "sms:code_sent" }
            server.clock.advance(by: 60)
            let next = try await probe.messages { $0.label == "voice:code_sent" }
            let labels = next.compactMap(\.label)
            #expect(labels.prefix(3) == ["timer:fired", "sms:timed_out", "voice:started"])
            probe.disconnect()
        }
    }
}
