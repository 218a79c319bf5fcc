import Foundation
import Synchronization
@testable import TacitServer
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitStore
import TacitTesting
import Testing

/// Every fraud decision about a start reported (docs/fraud.md#decisions, docs/events.md): a refused
/// start's `verification.blocked` webhook, signed and durable like the others, with the rule and
/// its figures and never the whole number; geo's refusals and monitored starts in `/metrics` and
/// the security log; `fraud:blocked` on the timeline of a step geo permissions skipped.
@Suite("Fraud: decisions as webhooks, metrics and events", .timeLimit(.minutes(1)))
struct FraudDecisionTests {
    static let premium = "+449098765432"

    /// The security log's lines, kept for the test to read.
    final class LogLines: Sendable {
        let lines = Mutex<[String]>([])
    }

    /// A test application whose webhooks go to `sink`, taking `events`, and whose security log is kept.
    static func test(_ sink: WebhookSink, events: Set<WebhookEvent>? = [.blocked], log: LogLines? = nil,
                     _ body: @Sendable (TestApplication, TestClient) async throws -> Void) async throws {
        let endpoint = WebhookEndpoint(url: sink.url, secrets: WebhookFixtures.secrets, events: events)
        try await TestApplication.test(.inProcess, store: InMemoryStore(), configure: { configuration, dependencies in
            WebhookFixtures.configure(&configuration, &dependencies, endpoints: [endpoint])
            if let log { dependencies.securityLog = SecurityLog { line in log.lines.withLock { $0.append(line) } } }
        }, body)
    }

    static func data(_ request: HTTPRequest) throws -> [String: Any] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        #expect(json["type"] as? String == "verification.blocked")
        #expect(json["timestamp"] as? String != nil)
        return try #require(json["data"] as? [String: Any])
    }

    @Test("a refused premium-rate start sends one verification.blocked, signed, with the rule and a redacted number")
    func lineTypeWebhook() async throws {
        let sink = try WebhookSink(statuses: [204])
        try await Self.test(sink) { app, client in
            var attempts = try #require(app.application.webhookAttempts).makeAsyncIterator()
            let reply = try await client.start(Self.premium, channels: ["sms"]).reply
            #expect(reply.status == 403, "\(reply.text)")
            let attempt = try #require(await attempts.next())
            #expect(attempt.result == .delivered && attempt.type == "verification.blocked")

            let request = try #require(sink.requests.first)
            let text = String(decoding: request.body, as: UTF8.self)
            #expect(!text.contains("9098765432") && !text.contains("449098765432"), "\(text)")
            let data = try Self.data(request)
            #expect(data["rule"] as? String == "line_type")
            #expect(data["line_type"] as? String == "premium_rate")
            #expect(data["application_id"] as? String == Application.devID)
            #expect(data["phone_number"] as? String == "+44•••••5432")
            #expect(data["country"] as? String == "GB")
            #expect(data["request_id"] is NSNull)

            let id = try #require(request.header("webhook-id"))
            let timestamp = try #require(request.header("webhook-timestamp"))
            let signatures = try #require(request.header("webhook-signature"))
            for secret in WebhookFixtures.secrets {
                try StandardWebhooks.verify(secret: secret, id: id, timestamp: timestamp, signatures: signatures,
                                            body: request.body, now: app.clock.now())
            }
            // Exactly one, settled: no verification owns it, and no timeline was written for it.
            let rows = try await app.store.outboxMessages(verificationId: "")
            #expect(rows.map(\.type) == ["verification.blocked"] && rows.map(\.state) == [.delivered])
            #expect(sink.requests.count == 1)
        }
        await sink.stop()
    }

    @Test("an endpoint that doesn't take verification.blocked gets none, and the refusal writes no row")
    func filtered() async throws {
        let sink = try WebhookSink(statuses: [204])
        try await Self.test(sink, events: [WebhookEvent.cancelled]) {
            (app: TestApplication, client: TestClient) async throws in
            #expect(try await client.start(Self.premium, channels: ["sms"]).reply.status == 403)
            #expect(try await app.store.outboxMessages(verificationId: "").isEmpty)
        }
        await sink.stop()
    }

    @Test("a start in a blocked prefix sends the prefix, its sends, conversions, baseline and retry_after")
    func prefixWebhook() async throws {
        let sink = try WebhookSink(statuses: [204])
        try await Self.test(sink) { app, client in
            try await FraudPrefixBlockTests.setLevel(app, .standard)
            var attempts = try #require(app.application.webhookAttempts).makeAsyncIterator()
            for index in 0..<10 {
                let number = FraudPrefixBlockTests.attack(index)
                #expect(try await client.start(number, channels: ["sms"]).reply.status == 202)
            }
            let attack = FraudPrefixBlockTests.attack(10)
            #expect(try await client.start(attack, channels: ["sms"]).reply.status == 403)
            #expect(try #require(await attempts.next()).result == .delivered)
            let request = try #require(sink.requests.first)
            #expect(!String(decoding: request.body, as: UTF8.self).contains(String(attack.dropFirst())))
            let data = try Self.data(request)
            #expect(data["rule"] as? String == "prefix_volume")
            #expect(data["prefix"] as? String == "44791113")
            #expect(data["sends"] as? Int == 10 && data["conversions"] as? Int == 0)
            #expect(data["baseline"] is NSNull)
            #expect(data["retry_after"] as? Int == 3_600)
            #expect(sink.requests.count == 1)
        }
        await sink.stop()
    }

    @Test("a geo refusal sends its webhook and counts in /metrics and the security log, once")
    func geoRefusal() async throws {
        let sink = try WebhookSink(statuses: [204])
        let log = LogLines()
        try await Self.test(sink, log: log) { app, client in
            try await FraudGeoTests.allow(app, Application.devID, "sms", ["GB"])
            var attempts = try #require(app.application.webhookAttempts).makeAsyncIterator()
            #expect(try await client.start(FraudGeoTests.german, channels: ["sms"]).reply.status == 403)
            #expect(try #require(await attempts.next()).result == .delivered)
            let data = try Self.data(try #require(sink.requests.first))
            #expect(data["rule"] as? String == "geo" && data["country"] as? String == "DE")
            #expect(data["channels"] as? [String] == ["sms"])
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains(#"tacit_fraud_decisions_total{decision="blocked",rule="geo"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"tacit_security_refusals_total{stage="start",reason="geo"} 1"#), "\(metrics)")
            let lines = log.lines.withLock { $0 }
            let refusals = lines.filter { $0.contains("refused a verification start: geo (region DE)") }
            #expect(refusals.count == 1, "\(lines)")
            #expect(!lines.joined().contains("15112345678"))
        }
        await sink.stop()
    }

    @Test("a monitored geo decision counts as monitored, once per channel, in /metrics and the security log")
    func geoMonitored() async throws {
        let sink = try WebhookSink(statuses: [204])
        let log = LogLines()
        try await Self.test(sink, log: log) { app, client in
            try await FraudGeoTests.allow(app, Application.devID, "sms", ["GB"], mode: .monitor)
            #expect(try await client.start(FraudGeoTests.german, channels: ["sms"]).reply.status == 202)
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains(#"tacit_fraud_decisions_total{decision="monitored",rule="geo"} 1"#), "\(metrics)")
            #expect(!metrics.contains(#"decision="blocked",rule="geo""#))
            #expect(log.lines.withLock { $0 }.contains { $0.contains("monitored a verification start: geo") })
            #expect(try await app.store.outboxMessages(verificationId: "").isEmpty, "monitoring refuses nothing")
        }
        await sink.stop()
    }

    @Test("a step geo permissions skip is preceded by fraud:blocked with the rule, channel and country")
    func geoSkippedStep() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            try await FraudGeoTests.allow(app, Application.devID, "sms", ["GB"])
            let (id, reply) = try await client.start(FraudGeoTests.german, channels: ["sms", "voice"])
            #expect(reply.status == 202, "\(reply.text)")
            let events = try await FraudGeoTests.events(client, id)
            let labels = events.compactMap { $0["label"] as? String }
            let blocked = try #require(labels.firstIndex(of: "fraud:blocked"), "\(labels)")
            #expect(labels[blocked + 1] == "sms:skipped", "\(labels)")
            #expect(labels.filter { $0 == "fraud:blocked" }.count == 1)
            let data = FraudGeoTests.data(events, "fraud:blocked")
            #expect(data.first?["rule"] as? String == "geo" && data.first?["channel"] as? String == "sms")
            #expect(data.first?["country"] as? String == "DE")
            // A fixed line's skipped SMS is no fraud decision.
            let (fixed, _) = try await client.start(FraudLineTypeTests.fixedLine, channels: ["sms", "voice"])
            let fixedLabels = try await FraudGeoTests.events(client, fixed).compactMap { $0["label"] as? String }
            #expect(fixedLabels.contains("sms:skipped") && !fixedLabels.contains("fraud:blocked"), "\(fixedLabels)")
        }
    }
}
