import Foundation
import Testing
import TacitServer
import TacitStore
import TacitTesting

/// A client token that floods its own verification with device events: the count cap and
/// the rate refuse it with 429 and `Retry-After`, and the events the server writes still
/// land, after the flood as before it.
@Suite("Timeline device-event flood", .timeLimit(.minutes(1)))
struct TimelineFloodTests {
    /// A cap small enough to reach in a test, and no rate to get in its way.
    static func capped(_ cap: Int) -> (inout ServerConfiguration) -> Void {
        { configuration in
            configuration.security.timeline.maxDeviceEvents = cap
            configuration.security.timeline.deviceEventRate = RateLimit(0, per: 1)
        }
    }

    @Test("a verification takes device events up to its cap, then answers 429 rate-limited with Retry-After, and the cancel and summary still land")
    func cap() async throws {
        try await TimelineCalls.test(.inProcess, configure: Self.capped(30)) { server in
            let (id, token) = try await server.start("+99012345670")
            var statuses: [Int] = []
            for _ in 0..<36 { statuses.append(try await server.postDeviceEvent(id, token: token).status) }
            #expect(statuses == Array(repeating: 201, count: 30) + Array(repeating: 429, count: 6))
            let refused = try await server.postDeviceEvent(id, token: token)
            #expect(refused.type == "rate-limited")
            #expect(refused.header("content-type")?.hasPrefix("application/problem+json") == true)
            let retryAfter = try #require(refused.header("retry-after").flatMap(Int.init))
            #expect(retryAfter >= 1)
            #expect(refused.json["retry_after"] as? Int == retryAfter)
            #expect(try await server.call("DELETE", "/v1/verifications/\(id)").status == 204)
            let events = try await server.allEvents(id, limit: 1_000).events
            #expect(events.filter { $0["source"] as? String == "device" }.count == 30)
            #expect(events.contains { $0["label"] as? String == "api:cancel" })
            #expect(events.last?["label"] as? String == "verification:summary")
        }
    }

    @Test("posts sent all at once are held to the cap exactly: 30 stored of 45, the rest 429")
    func capUnderParallelPosts() async throws {
        try await TimelineCalls.test(.inProcess, configure: Self.capped(30)) { server in
            let (id, token) = try await server.start("+99012345670")
            let statuses = try await withThrowingTaskGroup(of: Int.self, returning: [Int].self) { group in
                for _ in 0..<45 { group.addTask { try await server.postDeviceEvent(id, token: token).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 30)
            #expect(statuses.filter { $0 == 429 }.count == 15)
            let events = try await server.allEvents(id, limit: 1_000).events
            #expect(events.filter { $0["source"] as? String == "device" }.count == 30)
        }
    }

    @Test("the cap is per verification: another verification's device posts while one is full")
    func capPerVerification() async throws {
        try await TimelineCalls.test(.inProcess, configure: Self.capped(3)) { server in
            let full = try await server.start("+99012345670")
            let other = try await server.start("+99012345672")
            for _ in 0..<3 { #expect(try await server.postDeviceEvent(full.id, token: full.token).status == 201) }
            #expect(try await server.postDeviceEvent(full.id, token: full.token).status == 429)
            #expect(try await server.postDeviceEvent(other.id, token: other.token).status == 201)
        }
    }

    @Test("a burst past the device-event rate is 429 with Retry-After, and a device that waits as told posts again")
    func rate() async throws {
        try await TimelineCalls.test(.inProcess, configure: { configuration in
            configuration.security.timeline.deviceEventBurst = 5
            configuration.security.timeline.deviceEventRate = RateLimit(1, per: 2)
        }) { server in
            let (id, token) = try await server.start("+99012345670")
            for _ in 0..<5 { #expect(try await server.postDeviceEvent(id, token: token).status == 201) }
            let refused = try await server.postDeviceEvent(id, token: token)
            #expect(refused.status == 429)
            #expect(refused.type == "rate-limited")
            #expect(refused.header("retry-after") == "2")
            server.clock.advance(by: 1)
            #expect(try await server.postDeviceEvent(id, token: token).status == 429)
            server.clock.advance(by: 1)
            #expect(try await server.postDeviceEvent(id, token: token).status == 201)
            #expect(try await server.postDeviceEvent(id, token: token).status == 429)
        }
    }

    @Test("a refused burst spends none of the cap: a device kept to the rate reaches exactly its cap")
    func rateSparesCap() async throws {
        try await TimelineCalls.test(.inProcess, configure: { configuration in
            configuration.security.timeline.maxDeviceEvents = 4
            configuration.security.timeline.deviceEventBurst = 2
            configuration.security.timeline.deviceEventRate = RateLimit(1, per: 1)
        }) { server in
            let (id, token) = try await server.start("+99012345670")
            var accepted = 0
            for _ in 0..<4 {
                for _ in 0..<3 {
                    if try await server.postDeviceEvent(id, token: token).status == 201 { accepted += 1 }
                }
                server.clock.advance(by: 1)
            }
            #expect(accepted == 4)
            let events = try await server.events(id)
            #expect(events.filter { $0["source"] as? String == "device" }.count == 4)
        }
    }

    @Test("with the default limits, a device that reports a few dozen things at once is never refused")
    func defaultsAdmitARealDevice() async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let (id, token) = try await server.start("+99012345670")
            for index in 0..<40 {
                #expect(try await server.postDeviceEvent(id, token: token, label: "device:step_\(index % 10)").status == 201)
            }
        }
    }

    @Test("a refused device event is counted in /metrics by why it was refused")
    func metrics() async throws {
        try await TimelineCalls.test(.inProcess, configure: Self.capped(1)) { server in
            let (id, token) = try await server.start("+99012345670")
            _ = try await server.postDeviceEvent(id, token: token)
            _ = try await server.postDeviceEvent(id, token: token)
            let text = try await server.call("GET", "/metrics", keep: false).text
            #expect(text.contains(#"stage="device_event",reason="device_event_cap""#))
        }
    }
}
