import Foundation
import Testing
import TacitTesting
@testable import TacitServer

/// Two instances on one database (docs/api.md#several-instances-on-postgresql): a timer fires even if the instance that
/// armed it is gone, because every instance polls the store's deadline index.
@Suite("Timers across instances sharing a store")
struct SharedStoreTimerTests {
    /// Runs `body` with instance A inside instance B, both on B's SQLite file and clock.
    static func twoInstances(_ body: (_ b: TestApplication, _ bClient: TestClient, _ startOnA: () async throws -> String) async throws -> Void) async throws {
        let clock = ManualClock()
        try await TestApplication.test(.inProcess, clock: clock) { b, bClient in
            let shared = b.databasePath
            try await body(b, bClient) {
                // A starts a verification and is gone: its in-memory timer goes with it.
                try await TestApplication.test(.inProcess, clock: clock, configure: { configuration, _ in
                    configuration.databasePath = shared
                }) { _, aClient in
                    try await aClient.start("+99012345686", channels: ["sms", "voice"], extra: ["channel_timeout": 30]).0
                }
            }
        }
    }

    @Test("a step timer armed by an instance that is gone fires on another instance at its deadline")
    func deadInstancesTimerFires() async throws {
        try await Self.twoInstances { b, client, startOnA in
            let id = try await startOnA()
            let timers = try #require(b.application.timers)
            #expect(timers.count == 0, "B never saw the start")
            await b.application.pollDeadlines()
            #expect(timers.count == 0, "not due within the poll interval yet")
            // B's own poller may wake on this move too; either way, one poll arms it.
            b.clock.advance(by: 26)
            await b.application.pollDeadlines()
            #expect(timers.count == 1, "due within the next 5 s: armed")
            #expect(try await client.get("/v1/verifications/\(id)").string("channel") == "sms")
            await b.advance(by: 4)
            #expect(try await client.get("/v1/verifications/\(id)").string("channel") == "voice",
                    "B fired A's SMS timer at its deadline; B now holds the voice step's")
            #expect(await b.application.pollDeadlines() == 0, "B armed the voice step itself")
            #expect(timers.count == 1)
            await b.advance(by: 30)
            #expect(try await client.get("/v1/verifications/\(id)").string("status") == "expired")
        }
    }

    @Test("a poll arms nothing this instance already holds, so timers are not doubled")
    func pollSkipsHeld() async throws {
        try await TestApplication.test(.inProcess) { server, client in
            _ = try await client.start("+99012345687", channels: ["sms"], extra: ["channel_timeout": 15])
            server.clock.advance(by: 12)
            #expect(await server.application.pollDeadlines() == 0)
            #expect(server.application.timers?.count == 1)
        }
    }
}
