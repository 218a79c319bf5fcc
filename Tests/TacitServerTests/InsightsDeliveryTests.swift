import Foundation
import Testing
import TacitCore
import TacitHTTP
@testable import TacitServer
import TacitStore
import TacitTesting

/// Delivery receipts per provider in the summary (docs/api.md#the-summary): each send's first
/// final receipt counts it delivered or undelivered, whatever state its verification is in,
/// and a delivered one its time since the provider accepted it.
@Suite("Insights: delivery receipts", .timeLimit(.minutes(1)))
struct InsightsDeliveryTests {
    enum Backing: String, CaseIterable, Sendable { case memory, sqlite }

    static let window = "from=2026-11-29T00:00:00Z&to=2026-12-01T00:00:00Z"

    static func group(_ reply: TestResponse, _ key: String) -> [String: Any]? {
        (reply["groups"] as? [[String: Any]])?.first { ($0["key"] as? String) == key }
    }

    /// A provider whose callback body is `<status> <reference> [<nonce>]`: the nonce lets a test
    /// send a second report of the same status that is not a replay.
    struct Receipts: ProviderCallback {
        var path = "/v1/callbacks/receipts"

        func read(_ request: HTTPRequest, context: CallbackContext) throws(CallbackRejection) -> CallbackReading {
            let words = String(decoding: request.body, as: UTF8.self).split(separator: " ").map(String.init)
            guard words.count >= 2 else { throw .malformed }
            let report = ProviderReport(provider: "signed", reference: CallbackReference(words[1]), status: words[0],
                                        failures: ["failed"], deliveries: ["delivered"], messageId: "m-1")
            return CallbackReading(.delivery(report), replayKey: "receipts:" + words.joined(separator: " "),
                                   replayExpiresAt: context.now.addingTimeInterval(60))
        }
    }

    static func post(_ client: TestClient, _ body: String) async throws -> TestResponse {
        try await client.send("POST", "/v1/callbacks/receipts", body: Data(body.utf8))
    }

    @Test("receipts count per provider: delivered after the code was checked too, a failure undelivered, a repeat once",
          arguments: Backing.allCases)
    func receipts(backing: Backing) async throws {
        let store: (any VerificationStore)? = backing == .memory ? InMemoryStore() : nil
        try await TestApplication.test(.inProcess, store: store, sender: .accepting("signed", messageId: "m-1"),
                                       configure: { _, dependencies in
            dependencies.callbacks = [Receipts()]
            dependencies.codes = .fixed("424242")
        }) { app, client in
            var ids: [String] = []
            for suffix in ["56", "57", "58"] {
                let body = #"{"phone_number":"+4479111234\#(suffix)","workflow":[{"channel":"sms"},{"channel":"voice"}]}"#
                let id = try #require(try await client.post("/v1/verifications", raw: body).string("request_id"))
                await client.sendApplied(id)
                ids.append(id)
            }
            app.clock.advance(by: 7)
            #expect(try await Self.post(client, "delivered \(ids[0]):0").status == 204)
            #expect(try await Self.post(client, "queued \(ids[0]):0").status == 204)
            // Checked before its receipt came, as fast codes are: the receipt still counts.
            #expect(try await client.post("/v1/verifications/\(ids[1])/check", json: ["code": "424242"]).status == 200)
            app.clock.advance(by: 20)
            #expect(try await Self.post(client, "delivered \(ids[1]):0").status == 204)
            #expect(try await Self.post(client, "failed \(ids[2]):0").status == 204)
            await client.sendApplied(ids[2], step: 1)

            let reply = try await client.get("/v1/insights/summary?\(Self.window)&group_by=provider")
            #expect(reply.status == 200)
            let signed = try #require(Self.group(reply, "signed"))
            #expect(signed["sends"] as? Int == 4, "three SMS and the failed one's voice call")
            #expect(signed["delivered"] as? Int == 2)
            #expect(signed["undelivered"] as? Int == 1)
            #expect(signed["delivery_rate"] as? Double == 0.6667)
            // 7 s falls in (5, 10], 27 s in (20, 30]: the median interpolates to the first's top.
            #expect(signed["median_delivery_seconds"] as? Double == 10)
            let byChannel = try await client.get("/v1/insights/summary?\(Self.window)&group_by=channel")
            #expect(Self.group(byChannel, "sms")?["delivered"] as? Int == 2)
            #expect(Self.group(byChannel, "voice")?["delivery_rate"] is NSNull, "no receipt yet: no rate")
            let list = try await client.get("/v1/verifications?limit=3")
            #expect(list.status == 200)

            // A second delivered receipt for the same message counts nothing more.
            #expect(try await Self.post(client, "delivered \(ids[0]):0 again").status == 204)
            let again = try await client.get("/v1/insights/summary?\(Self.window)&group_by=provider")
            #expect(Self.group(again, "signed")?["delivered"] as? Int == 2)
        }
    }

    /// A silent provider whose check comes back priced, as tru.ID's create answer is.
    final class PricedSilent: SilentAuthProvider, Sendable {
        var providerName: String { "truid" }
        func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
            let challenge = SilentChallenge(checkURL: "http://127.0.0.1:9/truid", provider: "truid", reference: "c-1")
            return .issuedAtProvider(challenge.priced("1", currency: "API"), events: [])
        }
    }

    @Test("a silent check's price is kept as a send's, summed per currency, and counts no message sent",
          arguments: Backing.allCases)
    func silentCheckPrice(backing: Backing) async throws {
        let store: (any VerificationStore)? = backing == .memory ? InMemoryStore() : nil
        try await TestApplication.test(.inProcess, store: store, configure: { _, dependencies in
            dependencies.silentAuth = try! SilentProviderRouter(
                providers: [RoutedSilentProvider(name: "truid", provider: PricedSilent())],
                routes: try! ProviderRoutes(settings: [:]), virtual: nil, region: { _ in "GB" },
                breaker: ProviderBreakerSettings(), clock: ManualClock())
        }) { _, client in
            let body = #"{"phone_number":"+447400123456","workflow":[{"channel":"silent_auth"},{"channel":"sms"}]}"#
            let started = try await client.post("/v1/verifications", raw: body)
            #expect(started.status == 202, "\(started.text)")
            let item = try #require((try await client.get("/v1/verifications"))["verifications"] as? [[String: Any]])
            let sends = item.first?["sends"] as? [[String: Any]] ?? []
            #expect(sends.map { $0["channel"] as? String } == ["silent_auth"])
            #expect(sends.first?["provider"] as? String == "truid")
            #expect(sends.first?["price"] as? String == "1" && sends.first?["currency"] as? String == "API")
            #expect(sends.first?["price_source"] as? String == "receipt")
            let reply = try await client.get("/v1/insights/summary?\(Self.window)&group_by=provider")
            let truid = try #require(Self.group(reply, "truid"))
            #expect(truid["sends"] as? Int == 0)
            #expect(truid["spend"] as? [[String: String]] == [["currency": "API", "amount": "1.000000"]])
        }
    }
}
