import Foundation
import Testing
import TacitCore
import TacitServer
import TacitTesting

/// The circuit breaker inside a whole application, in process: the skip as a provider
/// hop on the timeline, and the circuit's state and openings in `/metrics`.
@Suite("Provider circuits in the application: the skip on the timeline and the state in /metrics")
struct ProviderCircuitFlowTests {
    @Test("once Twilio's circuit opens, the next verification's timeline shows Twilio skipped for Vonage, and /metrics shows it open")
    func skipOnTimelineAndMetrics() async throws {
        let clock = ManualClock()
        let (twilio, vonage) = (ScriptedSender("twilio", refusal: .transient), ScriptedSender("vonage"))
        let router = try ProviderRouter(
            providers: [RoutedProvider(name: "twilio", channels: [.sms], sender: twilio),
                        RoutedProvider(name: "vonage", channels: [.sms], sender: vonage)],
            routes: ProviderRoutes(), breaker: ProviderBreakerSettings(failures: 1, cooldown: 30), clock: clock)
        try await TestApplication.test(.inProcess, clock: clock, configure: { _, dependencies in
            dependencies.sender = router
        }) { app, client in
            let before = try await client.get("/metrics").text
            #expect(before.contains("tacit_provider_circuit_state{provider=\"twilio\"} 0"))
            _ = try await start(client, "+447911123456")
            let id = try await start(client, "+447911123457")
            #expect(twilio.count == 1)
            let events = try await app.store.events(id: id, after: 0, limit: 100)
            let skip = try #require(events.first { $0.label == "provider:skipped" })
            #expect(skip.source == .provider)
            #expect(skip.data["provider"] == .string("twilio"))
            #expect(skip.data["reason"] == .string(ProviderCircuit.openReason))
            #expect(skip.data["next_provider"] == .string("vonage"))
            #expect(skip.note.contains("circuit is open"))
            #expect(events.contains { $0.label == "provider:accepted" && $0.data["provider"] == .string("vonage") })
            let after = try await client.get("/metrics").text
            #expect(after.contains("tacit_provider_circuit_state{provider=\"twilio\"} 1"))
            #expect(after.contains("tacit_provider_circuit_opened_total{provider=\"twilio\"} 1"))
            #expect(after.contains("tacit_provider_circuit_state{provider=\"vonage\"} 0"))
        }
    }

    func start(_ client: TestClient, _ number: String) async throws -> String {
        let reply = try await client.post("/v1/verifications", json: ["phone_number": number, "workflow": [["channel": "sms"]]])
        return try #require(reply.string("request_id"))
    }
}
