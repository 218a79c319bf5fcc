import Foundation
import Testing
import TacitTesting
@testable import TacitServer

@Suite("Timers and restarts")
struct TimerRestartTests {
    /// Runs `body` with a verification for `number` trying SMS, then voice, 30 seconds each.
    static func smsThenVoice(_ number: String, _ body: (TestApplication, TestClient, String) async throws -> Void) async throws {
        try await TestApplication.test(.inProcess) { server, client in
            let (id, _) = try await client.start(number, channels: ["sms", "voice"], extra: ["channel_timeout": 30])
            try await body(server, client, id)
        }
    }

    @Test("each step fails over on the server's own clock; the last timeout expires the verification")
    func timeoutsFailOver() async throws {
        try await Self.smsThenVoice("+99012345681") { server, client, id in
            await server.advance(by: 29)
            #expect(try await client.get("/v1/verifications/\(id)").string("channel") == "sms")
            await server.advance(by: 1)
            let voice = try await client.get("/v1/verifications/\(id)")
            #expect(voice.string("channel") == "voice")
            await server.advance(by: 30)
            let expired = try await client.get("/v1/verifications/\(id)")
            #expect(expired.string("status") == "expired")
            #expect((expired["workflow"] as? [[String: String]])?.map { $0["status"] } == ["expired", "expired"])
            let check = try await client.post("/v1/verifications/\(id)/check", json: ["code": "123456"])
            #expect(check.status == 410)
            #expect(check.string("type") == "expired")
        }
    }

    @Test("a code expires with its step: the SMS code is refused once voice is active")
    func codesExpireWithStep() async throws {
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.codes = .sequence(["111111", "222222"]) }) { server, client in
            let (id, _) = try await client.start("+99012345682", channels: ["sms", "voice"])
            await server.advance(by: 60)
            #expect(try await client.get("/v1/verifications/\(id)").string("channel") == "voice")
            let stale = try await client.post("/v1/verifications/\(id)/check", json: ["code": "111111"])
            #expect(stale.status == 400)
            #expect(try await client.post("/v1/verifications/\(id)/check", json: ["code": "222222"]).status == 200)
        }
    }

    @Test("a timer armed at a deadline a later change moved fires early, changes nothing, and the step's own deadline is armed again")
    func earlyTimerRearms() async throws {
        try await Self.smsThenVoice("+99012345685") { server, client, id in
            await server.advance(by: 10)
            #expect(try await client.post("/v1/verifications/\(id)/next", json: [:]).status == 200)
            // What a restart's re-arming did when its read of the store came before the skip
            // and its arming after it: the SMS step's deadline replaced the voice step's.
            let timers = try #require(server.application.timers)
            timers.schedule(id, at: server.clock.now().addingTimeInterval(20))
            await server.advance(by: 20)
            let early = try await client.get("/v1/verifications/\(id)")
            #expect(early.string("status") == "pending")
            #expect(early.string("channel") == "voice")
            #expect(timers.count == 1, "the voice step's timer is armed again")
            await server.advance(by: 10)
            #expect(try await client.get("/v1/verifications/\(id)").string("status") == "expired")
        }
    }

    @Test("after a restart, pending timers are re-armed from the store and overdue ones fire at once")
    func restartRearmsTimers() async throws {
        try await TestApplication.test(.inProcess) { server, client in
            let (overdue, _) = try await client.start("+99012345683", channels: ["sms", "voice"])
            let (later, _) = try await client.start("+99012345684", channels: ["sms"], extra: ["channel_timeout": 300])
            try await server.restart { server.clock.advance(by: 120) }
            #expect(try await client.get("/readyz").status == 200)
            await server.application.fireDueTimers()
            let moved = try await client.get("/v1/verifications/\(overdue)")
            #expect(moved.string("channel") == "voice", "the overdue SMS step failed over as soon as the server came back")
            #expect(try await client.get("/v1/verifications/\(later)").string("status") == "pending")
            await server.advance(by: 200)
            #expect(try await client.get("/v1/verifications/\(later)").string("status") == "expired")
        }
    }
}
