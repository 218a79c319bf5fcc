import Foundation
import Testing
@testable import TacitServer
import TacitStore
import TacitTesting

@Suite("SMS pumping defences")
struct SecurityPumpingTests {
    @Test("a burst over a denied prefix costs zero sends, answers 403 and shows in metrics and logs without a number")
    func deniedPrefixBurst() async throws {
        try await SecurityCalls.test(configure: { $0.security.destinations.deniedPrefixes = ["+44791112"] }) { server in
            for last in 0..<30 {
                let reply = try await server.start("+447911120" + String(format: "%03d", last))
                #expect(reply.status == 403)
                #expect(reply.type == "destination-denied")
            }
            #expect(server.sender.count == 0)
            let allowed = try await server.start("+447400123456")
            #expect(allowed.status == 202, "\(allowed.text)")
            let metrics = try await server.request("GET", "/metrics").text
            #expect(metrics.contains(#"tacit_security_refusals_total{stage="start",reason="prefix_denied"} 30"#))
            #expect(server.logs.count == 30)
            #expect(!server.logs.joined().contains("791112"))
        }
    }

    @Test("an allow list of countries refuses every other country")
    func countryAllowList() async throws {
        try await SecurityCalls.test(configure: { $0.security.destinations.allowedCountries = ["FR"] }) { server async throws in
            #expect(try await server.start("+447911123456").type == "destination-denied")
            #expect(try await server.start("+33612345678").status == 202)
            #expect(server.sender.count == 1)
        }
    }

    @Test("the default deny list covers international network ranges, and the line-type rules refuse premium rate")
    func defaults() {
        let policy = DestinationPolicy()
        #expect(policy.refusal(e164: "+88213000000", region: nil) == "prefix_denied")
        #expect(policy.refusal(e164: "+447911123456", region: "GB") == nil)
        let premium = StartSubmission(body: Array(#"{"phone_number":"+449098765432"}"#.utf8), allowVirtualRange: false)
        #expect(premium.parsedNumber.flatMap { LineTypeRules.refusal($0.lineType) }?.type == "fraud-blocked")
    }

    @Test("10 distinct numbers in one range within an hour pass; the 11th is refused, another range is not")
    func sequentialVelocity() async throws {
        try await SecurityCalls.test { server in
            for last in 0..<10 {
                #expect(try await server.start("+4479111234" + String(format: "%02d", last)).status == 202)
            }
            let refused = try await server.start("+447911123410")
            #expect(refused.status == 429)
            #expect(refused.type == "rate-limited")
            #expect(try await server.start("+447400123410").status == 202)
            #expect(server.sender.count == 11)
            #expect(server.logs.contains { $0.contains("sequential_numbers") })
        }
    }

    @Test("a send that the guard refuses mid-flow lands on the timeline and reaches no sender")
    func deniedSendOnTimeline() async throws {
        try await SecurityCalls.test(configure: { $0.security.sendsPerNumber = .init(1, per: 600) }) { server in
            let id = try #require(try await server.start("+447911123456").json["request_id"] as? String)
            _ = try await server.request("POST", "/v1/verifications/\(id)/next", json: [:])
            let state = try await server.request("GET", "/v1/verifications/\(id)")
            #expect(state.json["status"] as? String == "failed")
            let events = try await server.store.events(id: id, after: 0, limit: 100)
            let refusal = try #require(events.first { $0.label == "voice:failed" })
            #expect(refusal.note.contains("no provider was called"))
            #expect(server.sender.count == 1)
        }
    }

    @Test("when few sent codes are verified over a window, a warning is logged and counted")
    func conversionAlert() async throws {
        try await SecurityCalls.test(configure: {
            $0.security.conversionMinimumSends = 4
            $0.security.velocity = .init(0, per: 3_600)
        }) { server in
            for last in 0..<5 { _ = try await server.start("+4479111234" + String(format: "%02d", last)) }
            let good = try #require(try await server.start("+447400123456").json["request_id"] as? String)
            #expect(try await server.check(good, "123456").status == 200)
            #expect(server.logs.allSatisfy { !$0.contains("conversion") })
            server.clock.advance(by: 3_600)
            _ = try await server.start("+447400123457")
            #expect(server.logs.contains { $0.contains("conversion fell to 16% (1 of 6 codes sent)") })
            let metrics = try await server.request("GET", "/metrics").text
            #expect(metrics.contains("tacit_send_conversion_alerts_total 1"))
            #expect(metrics.contains("tacit_send_conversion_ratio 0.166"))
        }
    }
}
