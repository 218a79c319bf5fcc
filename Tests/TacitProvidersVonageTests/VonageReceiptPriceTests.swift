import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitTesting
@testable import TacitProvidersVonage

/// A sender that answers as Vonage's SMS API would, accepting every message without a price.
struct AcceptingAsVonage: MessageSender {
    func send(_ message: OutboundMessage) async -> DeliveryResult {
        DeliveryResult(DeliveryAttempt.accepted(by: VonageProvider.name, messageId: "0A00000012345678"))
    }
}

@Suite("Vonage receipts' prices")
struct VonageReceiptPriceTests {
    @Test("a signed receipt's price is kept on its send, after the code was checked too, and counts in the summary")
    func receiptPrice() async throws {
        try await TestApplication.test(.inProcess, configure: { configuration, dependencies in
            VonageCallbackFixture.configure(&dependencies)
            dependencies.sender = AcceptingAsVonage()
            dependencies.codes = .fixed("424242")
            configuration.prices = try! PriceTable(text: "sms,vonage,*,0.05,USD")
        }) { app, client in
            let id = try await VonageCallbackFixture.start(client, number: "+447400123456")
            let before = try await client.get("/v1/verifications")
            let send = ((before["verifications"] as? [[String: Any]])?.first?["sends"] as? [[String: Any]])?.first
            #expect(send?["price_source"] as? String == "table")
            #expect(try await client.post("/v1/verifications/\(id)/check", json: ["code": "424242"]).status == 200)
            var fields = VonageReceiptTests.receipt("\(id):0", status: "delivered", clock: app.clock, secret: nil)
            fields.append(("price", "0.03330000"))
            fields.append(("sig", VonageSignature.sign(fields, secret: VonageReceiptTests.secret, method: .md5hash)))
            let posted = try await client.send("POST", VonageReceiptTests.url, body: VonageReceiptTests.form(fields),
                                               headers: VonageReceiptTests.formHeaders)
            #expect(posted.status == 204)
            let after = try await client.get("/v1/verifications")
            let priced = ((after["verifications"] as? [[String: Any]])?.first?["sends"] as? [[String: Any]])?.first
            #expect(priced?["price"] as? String == "0.03330000")
            #expect(priced?["currency"] as? String == "EUR")
            #expect(priced?["price_source"] as? String == "receipt")
            let summary = try await client.get(
                "/v1/insights/summary?from=2026-11-30T00:00:00Z&to=2026-12-01T00:00:00Z&group_by=provider")
            let totals = summary["totals"] as? [String: Any]
            #expect(totals?["spend"] as? [[String: String]] == [["currency": "EUR", "amount": "0.033300"]],
                    "the table's price is taken back when the receipt's replaces it")
        }
    }
}
