import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitTesting
@testable import TacitProvidersVonage

/// The mobile network a Vonage SMS delivery receipt names (`network-code`), read, put on the
/// timeline and the send, and used to block a pumped network (docs/fraud.md#mobile-networks).
@Suite("Vonage receipts' mobile networks", .timeLimit(.minutes(1)))
struct VonageNetworkTests {
    static let url = VonageReceiptTests.url

    /// A signed receipt for `reference`, naming `network` when given.
    static func receipt(_ reference: String, status: String = "delivered", network: String?,
                        clock: ManualClock) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [
            ("msisdn", "447911123456"), ("to", "Tacit"), ("messageId", "0A00000012345678"), ("status", status),
            ("err-code", "0"), ("client-ref", reference), ("nonce", UUID().uuidString),
            ("timestamp", String(Int(clock.now().timeIntervalSince1970))),
        ]
        if let network { fields.append(("network-code", network)) }
        fields.append(("sig", VonageSignature.sign(fields, secret: VonageReceiptTests.secret, method: .md5hash)))
        return fields
    }

    static func post(_ client: TestClient, _ fields: [(name: String, value: String)]) async throws -> Int {
        try await client.send("POST", url, body: VonageReceiptTests.form(fields),
                              headers: VonageReceiptTests.formHeaders).status
    }

    @Test("network-code is kept as 5 or 6 digits; a malformed one is dropped and the receipt still lands", arguments: [
        ("23410", "23410"), ("310260", "310260"), ("2341", nil), ("3102601", nil), ("2341a", nil), ("", nil),
        ("２３４１０", nil),
    ] as [(String, String?)])
    func parsed(_ code: String, _ kept: String?) throws {
        let clock = ManualClock()
        var fields = Self.receipt("vf_x:0", network: nil, clock: clock).filter { $0.name != "sig" }
        fields.append(("network-code", code))
        fields.append(("sig", VonageSignature.sign(fields, secret: VonageReceiptTests.secret, method: .md5hash)))
        let receipt = try VonageReceipt(parameters: fields, secret: VonageReceiptTests.secret, method: .md5hash,
                                        now: clock.now(), maxAge: 300)
        #expect(receipt.report.network == kept)
        #expect(receipt.report.kind == .delivered)
    }

    @Test("a receipt's network reaches its timeline event and its send; a later receipt names it again without a second")
    func networkOnTimelineAndSend() async throws {
        let store = InMemoryStore()
        let sender = RecordingSender.accepting("vonage", messageId: "0A00000012345678")
        try await TestApplication.test(.inProcess, store: store, sender: sender, configure: { _, dependencies in
            VonageCallbackFixture.configure(&dependencies)
        }) { app, client in
            let id = try await VonageCallbackFixture.start(client, number: VonageCallbackFixture.sentNumber)
            #expect(try await Self.post(client, Self.receipt("\(id):0", status: "accepted", network: "23410",
                                                             clock: app.clock)) == 204)
            #expect(try await Self.post(client, Self.receipt("\(id):0", network: "23410", clock: app.clock)) == 204)
            let events = try await store.events(id: id, after: 0, limit: 100)
            let status = try #require(events.first { $0.label == "provider:status" })
            let delivered = try #require(events.first { $0.label == "provider:delivered" })
            #expect(status.data["network"] == .string("23410") && delivered.data["network"] == .string("23410"))
            let sends = try #require(try await store.verification(id: id)).acceptedSends
            #expect(sends.map(\.network) == ["23410"])
        }
    }

    @Test("at standard, receipts placing ten unconverted sends on one network block it: a start in a range mapped to it is 403, a converting network's range passes (its codes checked after their receipts, or before); the block is listed and lifted over HTTP",
          arguments: [false, true])
    func pumpedNetworkBlocked(checkedFirst: Bool) async throws {
        let store = InMemoryStore()
        let sender = RecordingSender.accepting("vonage", messageId: "0A00000012345678")
        try await TestApplication.test(.inProcess, store: store, sender: sender, configure: { _, dependencies in
            VonageCallbackFixture.configure(&dependencies)
        }) { app, client in
            let applications = try #require(app.store as? any ApplicationStore)
            var settings = try #require(try await applications.application(id: Application.devID)).settings
            settings.fraudLevel = .standard
            #expect(try await applications.updateApplication(id: Application.devID, settings: settings))
            // Ten users on 23410 in the range 44791112, each typing the code after its receipt came,
            // or before: the receipt then counts the conversion the check could not place.
            for index in 0..<10 {
                let number = "+44791112" + String(format: "%04d", index * 37)
                let id = try await VonageCallbackFixture.start(client, number: number, workflow: #"[{"channel":"sms"}]"#)
                let receipt = Self.receipt("\(id):0", network: "23410", clock: app.clock)
                if !checkedFirst { #expect(try await Self.post(client, receipt) == 204) }
                let code = try #require(sender.messages.last { $0.to == number }?.code)
                #expect(try await client.post("/v1/verifications/\(id)/check", json: ["code": code]).status == 200)
                if checkedFirst { #expect(try await Self.post(client, receipt) == 204) }
            }
            // An attack on 23499 over five ranges, two numbers each: no range is blocked on its own.
            for index in 0..<10 {
                let number = "+4479111\(3 + index % 5)" + String(format: "%04d", index * 101)
                let id = try await VonageCallbackFixture.start(client, number: number, workflow: #"[{"channel":"sms"}]"#)
                #expect(try await Self.post(client, Self.receipt("\(id):0", network: "23499", clock: app.clock)) == 204)
            }
            let sent = sender.messages.count
            let refused = try await client.start("+447911135555", channels: ["sms"]).reply
            #expect(refused.status == 403 && refused.string("type")?.hasSuffix("fraud-blocked") == true, "\(refused.text)")
            #expect(refused.json["retry_after"] as? Int == 3_600 && refused.header("Retry-After") == "3600")
            #expect(refused.string("detail")?.contains("rule network_volume") == true, "\(refused.text)")
            #expect(sender.messages.count == sent, "nothing sent")
            // The converting network's range, and a range no receipt placed, go on.
            #expect(try await client.start("+447911120999", channels: ["sms"]).reply.status == 202)
            #expect(try await client.start("+447911180001", channels: ["sms"]).reply.status == 202)
            let listed = try await client.get("/v1/fraud/blocks")
            #expect(listed.text.contains(#""prefix":"net:23499""#) && listed.text.contains(#""rule":"network_volume""#),
                    "\(listed.text)")
            #expect(try await client.delete("/v1/fraud/blocks/net:2349").status == 422)
            #expect(try await client.delete("/v1/fraud/blocks/net:23499").status == 204)
            #expect(try await client.delete("/v1/fraud/blocks/net:23499").status == 404)
            #expect(try await client.start("+447911135555", channels: ["sms"]).reply.status == 202)
        }
    }
}
