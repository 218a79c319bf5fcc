import Foundation
import Testing
import TacitKit

/// Every virtual-operator outcome through `SilentAuth.run` and `VerificationFlowDriver`
/// against a real in-process server over loopback.
@Suite("TacitKit live: operator outcomes", .timeLimit(.minutes(1)))
struct LiveOperatorOutcomeTests {
    typealias State = VerificationFlow.State

    @Test("an even number completes silently, with nothing to type")
    func completes() async throws {
        try await KitCalls.test { server in
            let runs = Counter()
            let states = try await server.collect(server.driver(runs: runs), StartVerificationRequest(phoneNumber: "+99012345670"))
            let id = try #require(Self.requestId(states))
            #expect(states == [.starting, .awaitingSilentAuth(requestId: id), .verified])
            #expect(runs.count == 1)
            let final = try await server.client.state(id)
            #expect(final.workflow.map(\.status) == [.completed, .unused, .unused])
            #expect(try await server.labels(id).contains("device:integrity_checked"))
        }
    }

    @Test("a rejected SIM falls back to SMS, and the device does not skip the SMS step the server just started")
    func rejected() async throws {
        try await KitCalls.test { server in
            let states = try await server.collect(server.driver(), StartVerificationRequest(phoneNumber: "+99012345671"))
            let id = try #require(Self.requestId(states))
            #expect(states == [.starting, .awaitingSilentAuth(requestId: id), .enteringSmsCode(requestId: id), .verified])
            let final = try await server.client.state(id)
            #expect(final.workflow.map(\.status) == [.rejected, .completed, .unused])
        }
    }

    @Test("a carrier error fails the silent step at once and the flow starts on SMS")
    func carrierError() async throws {
        try await KitCalls.test { server in
            let runs = Counter()
            let states = try await server.collect(server.driver(runs: runs), StartVerificationRequest(phoneNumber: "+99012345699"))
            let id = try #require(Self.requestId(states))
            #expect(states == [.starting, .enteringSmsCode(requestId: id), .verified])
            #expect(runs.count == 0)
            #expect(try await server.client.state(id).workflow.map(\.status) == [.failed, .completed, .unused])
        }
    }

    @Test("no coverage gives no check_url and starts on the next step")
    func noCoverage() async throws {
        try await KitCalls.test { server in
            let started = try await server.client.start(StartVerificationRequest(phoneNumber: "+99012345698"))
            #expect(started.checkURL == nil && started.activeChannel == .sms)
            let runs = Counter()
            var states: [State] = []
            for await state in server.driver(runs: runs).follow(started) {
                states.append(state)
                if case .enteringSmsCode(let id) = state {
                    _ = try await server.client.check(id, code: try await server.smsCode(id, "+99012345698"))
                }
            }
            #expect(states == [.enteringSmsCode(requestId: started.requestId), .verified])
            #expect(runs.count == 0)
        }
    }

    @Test("a carrier that never answers leaves the step to the server's timer, and the driver follows the auto-advance")
    func neverAnswers() async throws {
        try await KitCalls.test { server in
            let started = try await server.client.start(StartVerificationRequest(phoneNumber: "+99012345697", channelTimeout: 30))
            let result = await SilentAuth.run(started, baseURL: server.base, transport: KitCalls.cellular, apiTransport: KitCalls.api)
            #expect(result.clientErrorName == "carrier_timeout")
            #expect(try await server.client.state(started.requestId).activeChannel == .silentAuth)

            // No silent runner: the device already gave up, so only the server's clock moves the flow.
            var states = VerificationFlowDriver(service: server.client).follow(started).makeAsyncIterator()
            #expect(await states.next() == .awaitingSilentAuth(requestId: started.requestId))
            await server.advance(by: 31)
            #expect(await states.next() == .enteringSmsCode(requestId: started.requestId))
            #expect(try await server.client.state(started.requestId).workflow.map(\.status) == [.expired, .active, .unused])
        }
    }

    @Test("a SIM swapped 2 hours ago still completes silently, flagged as a risk")
    func simSwapped() async throws {
        try await KitCalls.test { server in
            let request = StartVerificationRequest(phoneNumber: "+99012345696", simSwap: .init(maxAgeHours: 240, action: "flag"))
            let started = try await server.client.start(request)
            #expect(started.risk?.simSwapped == true)
            var states: [State] = []
            for await state in server.driver().follow(started) { states.append(state) }
            #expect(states == [.awaitingSilentAuth(requestId: started.requestId), .verified])
        }
    }

    static func requestId(_ states: [State]) -> String? {
        for state in states {
            switch state {
            case .awaitingSilentAuth(let id), .enteringSmsCode(let id), .enteringVoiceCode(let id): return id
            default: continue
            }
        }
        return nil
    }
}
