import Foundation
import Testing
import TacitCore
import TacitServer
import TacitTesting

/// The circuit breaker in front of each provider, through the router: when it opens,
/// what it skips, the one trial after the cool-down, and what closes or reopens it.
@Suite("Provider circuits: open after N transient failures, skip while open, one trial after the cool-down",
       .timeLimit(.minutes(1)))
struct ProviderCircuitTests {
    static let message = ProviderRouterTests.message()

    static func router(_ senders: [any MessageSender], names: [String], clock: ManualClock,
                       failures: Int = 3, cooldown: TimeInterval = 30) throws -> ProviderRouter {
        let providers = zip(names, senders).map { RoutedProvider(name: $0, channels: [.sms], sender: $1) }
        return try ProviderRouter(providers: providers, routes: ProviderRoutes(),
                                  breaker: ProviderBreakerSettings(failures: failures, cooldown: cooldown), clock: clock)
    }

    @Test("N transient failures in a row open the circuit, and while open the provider is skipped without being asked")
    func opensAndSkips() async throws {
        let clock = ManualClock()
        let (twilio, vonage) = (ScriptedSender("twilio", refusal: .transient), ScriptedSender("vonage"))
        let router = try Self.router([twilio, vonage], names: ["twilio", "vonage"], clock: clock)
        for _ in 0..<2 { _ = await router.send(Self.message) }
        #expect(router.circuits["twilio"]?.position == .closed)
        _ = await router.send(Self.message)
        #expect(router.circuits["twilio"]?.position == .open)
        #expect(router.circuits["twilio"]?.openedCount == 1)
        let skipped = await router.send(Self.message)
        #expect(twilio.count == 3)
        #expect(skipped.isAccepted)
        #expect(skipped.attempts.map(\.provider) == ["twilio", "vonage"])
        #expect(skipped.attempts.first?.reason == ProviderCircuit.openReason)
        clock.advance(by: 29)
        _ = await router.send(Self.message)
        #expect(twilio.count == 3)
        #expect(vonage.count == 5)
    }

    @Test("a success in between resets the count, and permanent number errors never open the circuit")
    func permanentDoesNotCount() async throws {
        let clock = ManualClock()
        let twilio = ScriptedSender("twilio", refusal: .permanent, reason: "invalid_number")
        let router = try Self.router([twilio], names: ["twilio"], clock: clock)
        for _ in 0..<10 { _ = await router.send(Self.message) }
        #expect(router.circuits["twilio"]?.position == .closed)
        #expect(twilio.count == 10)
        twilio.refuse(.transient)
        for _ in 0..<2 { _ = await router.send(Self.message) }
        twilio.refuse(nil)
        _ = await router.send(Self.message)
        twilio.refuse(.transient)
        for _ in 0..<2 { _ = await router.send(Self.message) }
        #expect(router.circuits["twilio"]?.position == .closed)
    }

    @Test("after the cool-down exactly one send is the trial, concurrent sends skip the provider, and the trial's success closes the circuit")
    func halfOpenTrialCloses() async throws {
        let clock = ManualClock()
        let (twilio, vonage) = (GatedSender("twilio"), ScriptedSender("vonage"))
        let router = try Self.router([twilio, vonage], names: ["twilio", "vonage"], clock: clock, failures: 2)
        var arrivals = twilio.arrivals.makeAsyncIterator()
        for _ in 0..<2 { twilio.reply(.transient); _ = await router.send(Self.message); _ = await arrivals.next() }
        #expect(router.circuits["twilio"]?.position == .open)
        clock.advance(by: 30)
        async let trial = router.send(Self.message)
        _ = await arrivals.next()
        #expect(router.circuits["twilio"]?.position == .halfOpen)
        // Bounded: a half-open circuit that lets these through parks them at the gated
        // provider, and the test fails here instead of hanging.
        let others = try await within(30) {
            await withTaskGroup(of: DeliveryResult.self, returning: [DeliveryResult].self) { group in
                for _ in 0..<4 { group.addTask { await router.send(Self.message) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(others.allSatisfy { $0.acceptedBy?.provider == "vonage" && $0.attempts.first?.reason == ProviderCircuit.openReason })
        #expect(twilio.count == 3)
        twilio.reply(nil)
        #expect(await trial.acceptedBy?.provider == "twilio")
        #expect(router.circuits["twilio"]?.position == .closed)
        twilio.reply(nil)
        #expect(await router.send(Self.message).acceptedBy?.provider == "twilio")
    }

    @Test("a failed trial opens the circuit again for another cool-down and counts as another opening")
    func failedTrialReopens() async throws {
        let clock = ManualClock()
        let (twilio, vonage) = (ScriptedSender("twilio", refusal: .transient), ScriptedSender("vonage"))
        let router = try Self.router([twilio, vonage], names: ["twilio", "vonage"], clock: clock, failures: 1, cooldown: 10)
        _ = await router.send(Self.message)
        clock.advance(by: 10)
        let trial = await router.send(Self.message)
        #expect(trial.attempts.first?.reason == "provider_error")
        #expect(twilio.count == 2)
        #expect(router.circuits["twilio"]?.position == .open)
        #expect(router.circuits["twilio"]?.openedCount == 2)
        clock.advance(by: 9)
        _ = await router.send(Self.message)
        #expect(twilio.count == 2)
        clock.advance(by: 1)
        twilio.refuse(nil)
        _ = await router.send(Self.message)
        #expect((twilio.count, router.circuits["twilio"]?.position) == (3, .closed))
    }

    @Test("the breaker's settings default to 5 failures and 30 seconds, and a bad value is a start-up error naming the setting")
    func settings() throws {
        #expect(try ProviderBreakerSettings(ProviderSettings()) == ProviderBreakerSettings(failures: 5, cooldown: 30))
        let given = ProviderSettings(["TACIT_PROVIDER_BREAKER_FAILURES": "2", "TACIT_PROVIDER_BREAKER_COOLDOWN_SECONDS": "7.5"])
        #expect(try ProviderBreakerSettings(given) == ProviderBreakerSettings(failures: 2, cooldown: 7.5))
        #expect(ProviderSettings.collect(from: ["TACIT_PROVIDER_BREAKER_FAILURES": "2", "TACIT_PORT": "1"],
                                          providerPrefixes: []).count == 1)
        for (name, value) in [("TACIT_PROVIDER_BREAKER_FAILURES", "0"), ("TACIT_PROVIDER_BREAKER_COOLDOWN_SECONDS", "soon")] {
            #expect { try ProviderBreakerSettings(ProviderSettings([name: value])) } throws: { error in
                (error as? ProviderSetupError)?.setting == name
            }
        }
    }
}
