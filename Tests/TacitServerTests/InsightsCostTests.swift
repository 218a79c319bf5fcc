import Foundation
import Testing
import TacitCore
import TacitServer
import TacitTesting

/// A sender whose provider prices some messages in its answer, as Twilio's and Vonage's do.
struct PricingSender: MessageSender {
    func send(_ message: OutboundMessage) async -> DeliveryResult {
        let attempt = DeliveryAttempt.accepted(by: "twilio", messageId: "SM" + String(repeating: "a", count: 32))
        // French numbers come back priced, as Twilio writes it; others without a price.
        return DeliveryResult(message.to.hasPrefix("+33") ? attempt.priced("-0.07500", currency: "USD") : attempt)
    }
}

@Suite("Insights: what sends cost")
struct InsightsCostTests {
    static let table = """
        # channel,provider,country,price,currency
        sms,twilio,GB,0.0400,GBP
        sms,*,*,0.0500,USD
        voice,twilio,*,0.0130,USD
        """

    static func sends(_ reply: TestResponse, clientRef: String) -> [[String: Any]] {
        let items = reply["verifications"] as? [[String: Any]] ?? []
        return items.first { $0["client_ref"] as? String == clientRef }?["sends"] as? [[String: Any]] ?? []
    }

    @Test("a send is priced by its provider's answer, else by the table's most specific line, and summed per currency")
    func prices() async throws {
        try await TestApplication.test(.inProcess, configure: { configuration, dependencies in
            configuration.prices = try! PriceTable(text: Self.table)
            dependencies.sender = PricingSender()
        }) { server, client in
            _ = try await client.start("+447400123456", channels: ["sms", "voice"], extra: ["client_ref": "gb"])
            _ = try await client.start("+33612345678", channels: ["sms"], extra: ["client_ref": "fr"])
            let (de, _) = try await client.start("+4915123456789", channels: ["sms", "voice"], extra: ["client_ref": "de"])
            #expect(try await client.post("/v1/verifications/\(de)/next", json: [:]).status == 200)
            let list = try await client.get("/v1/verifications")
            let gb = Self.sends(list, clientRef: "gb")
            #expect(gb.map { $0["price"] as? String } == ["0.0400"])
            #expect(gb.map { $0["currency"] as? String } == ["GBP"])
            #expect(gb.map { $0["price_source"] as? String } == ["table"])
            let fr = Self.sends(list, clientRef: "fr")
            #expect(fr.map { $0["price"] as? String } == ["0.07500"], "the provider's price, without its sign")
            #expect(fr.map { $0["price_source"] as? String } == ["receipt"])
            let de2 = Self.sends(list, clientRef: "de")
            #expect(de2.map { $0["price"] as? String } == ["0.0500", "0.0130"])
            #expect(de2.map { $0["channel"] as? String } == ["sms", "voice"])

            let summary = try await client.get(
                "/v1/insights/summary?from=2026-11-30T00:00:00Z&to=2026-12-01T00:00:00Z&group_by=channel")
            let totals = try #require(summary["totals"] as? [String: Any])
            #expect(totals["spend"] as? [[String: String]] == [["currency": "GBP", "amount": "0.040000"],
                                                              ["currency": "USD", "amount": "0.138000"]])
            let voice = (summary["groups"] as? [[String: Any]])?.first { $0["key"] as? String == "voice" }
            #expect(voice?["spend"] as? [[String: String]] == [["currency": "USD", "amount": "0.013000"]])
        }
    }

    @Test("the price table refuses a line it can't read, naming the line and never its content", arguments: [
        ("sms,twilio,GB,0.04", "line 1: needs 5 fields"),
        ("# comment\nfax,twilio,GB,0.04,USD", "line 2: unknown channel"),
        ("sms,twilio,Britain,0.04,USD", "line 1: country is not * or an ISO 3166 alpha-2 code"),
        ("sms,twilio,GB,-0.04,USD", "line 1: price is not a positive decimal"),
        ("sms,twilio,GB,0.04,dollars", "line 1: currency is not ISO 4217"),
    ])
    func badTable(text: String, expected: String) {
        #expect(throws: PriceTable.LineError.self) { try PriceTable(text: text) }
        do { _ = try PriceTable(text: text) } catch { #expect("\(error)" == expected) }
    }
}
