import Foundation
import Testing
import TacitTesting
import TacitCore
@testable import TacitServer

@Suite("Timeline SSE feed: out-of-order and duplicate publishes", .timeLimit(.minutes(1)))
struct TimelineFeedOrderTests {
    static let number = "+99012345672"

    static func fake(_ id: String, seq: Int, label: String) -> TimelineEvent {
        TimelineEvent(seq: seq, at: Date(timeIntervalSince1970: 0), requestId: id, source: .device, channel: nil,
                      label: label, outcome: .info, note: "Not from the store.", data: [:])
    }

    @Test("a published duplicate is dropped and a gap is filled from the store, so the stream stays gap-free")
    func duplicatesAndGaps() async throws {
        try await TimelineCalls.test(.live) { server in
            let (id, _) = try await server.start(Self.number)
            let backlog = try await server.events(id).count
            let probe = TimelineSSEProbe(server.baseURL, id: id)
            let first = try await probe.messages { $0.id == backlog }
            let hub = try #require(server.app.application.eventHub)
            // A stale repeat, then an event far ahead that the store never holds: neither may be sent.
            hub.publish([Self.fake(id, seq: 1, label: "device:fake_repeat")])
            hub.publish([Self.fake(id, seq: backlog + 50, label: "device:fake_ahead")])
            try await server.call("POST", "/v1/verifications/\(id)/next")
            try await server.call("DELETE", "/v1/verifications/\(id)")
            let rest = try await probe.messages()
            let total = try await server.events(id).count
            #expect((first + rest).compactMap(\.id) == Array(1...total))
            #expect(!(first + rest).contains { $0.label?.hasPrefix("device:fake") == true })
            #expect(rest.last?.label == "verification:summary")
        }
    }
}
