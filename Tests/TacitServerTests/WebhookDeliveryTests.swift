import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitStoreSQLite
import TacitTesting

@Suite("Webhook delivery")
struct WebhookDeliveryTests {
    @Test("a failing receiver is retried on the backoff schedule with the same webhook-id until it answers 2xx")
    func retriesUntilDelivered() async throws {
        let sink = try WebhookSink(statuses: [500, 503, 204])
        let clock = ManualClock()
        let store = InMemoryStore()
        let endpoint = WebhookEndpoint(url: sink.url, secrets: Live.secrets, events: [.cancelled])
        let app = try await Live.application(Live.configuration(endpoints: [endpoint]), store: store, clock: clock)
        var attempts = try #require(app.webhookAttempts).makeAsyncIterator()
        let id = try await Live.start(app)
        try await Live.cancel(app, id)
        let start = clock.now()

        let first = try #require(await attempts.next())
        #expect(first.result == .failed(retryAt: start.addingTimeInterval(5)))
        clock.advance(by: 5)
        let second = try #require(await attempts.next())
        #expect(second.result == .failed(retryAt: start.addingTimeInterval(25)))
        clock.advance(by: 20)
        let third = try #require(await attempts.next())
        #expect(third.result == .delivered)
        #expect(third.attempt == 3)

        let requests = sink.requests
        #expect(requests.count == 3)
        #expect(Set(requests.compactMap { $0.header("webhook-id") }).count == 1)
        let labels = try await Live.labels(app, id, store: store)
        #expect(labels.filter { $0 == "webhook:failed" }.count == 2)
        // Each delivery result of the final webhook is followed by the summary again, so it stays last.
        #expect(Array(labels.suffix(6)) == ["webhook:failed", "verification:summary", "webhook:failed", "verification:summary",
                                            "webhook:delivered", "verification:summary"])
        #expect(try await store.outboxMessages(verificationId: id).map(\.state) == [.delivered])
        await app.shutdown()
        await sink.stop()
    }

    @Test("the payload names the verification and its workflow, and carries no number, code or token")
    func payloadShape() async throws {
        let sink = try WebhookSink(statuses: [204])
        let clock = ManualClock()
        let endpoint = WebhookEndpoint(url: sink.url, secrets: Live.secrets, events: [.cancelled])
        let app = try await Live.application(Live.configuration(endpoints: [endpoint]), store: InMemoryStore(), clock: clock)
        var attempts = try #require(app.webhookAttempts).makeAsyncIterator()
        let id = try await Live.start(app, number: "+99012345672")
        try await Live.cancel(app, id)
        #expect(try #require(await attempts.next()).result == .delivered)

        let request = try #require(sink.requests.first)
        let text = String(decoding: request.body, as: UTF8.self)
        #expect(!text.contains("12345672"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        #expect(json["type"] as? String == "verification.cancelled")
        let data = try #require(json["data"] as? [String: Any])
        #expect(data["request_id"] as? String == id)
        #expect(data["status"] as? String == "cancelled")
        #expect(data["channel"] as? String == "sms")
        let workflow = try #require(data["workflow"] as? [[String: String]])
        #expect(workflow == [["channel": "sms", "status": "failed"], ["channel": "voice", "status": "unused"]])
        await app.shutdown()
        await sink.stop()
    }

    @Test("an endpoint that answers 410 Gone is disabled and gets nothing more")
    func goneDisables() async throws {
        let sink = try WebhookSink(statuses: [410])
        let clock = ManualClock()
        let store = InMemoryStore()
        let endpoint = WebhookEndpoint(url: sink.url, secrets: Live.secrets, events: [.cancelled])
        let app = try await Live.application(Live.configuration(endpoints: [endpoint]), store: store, clock: clock)
        var attempts = try #require(app.webhookAttempts).makeAsyncIterator()
        let first = try await Live.start(app, number: "+99012345674")
        try await Live.cancel(app, first)
        #expect(try #require(await attempts.next()).result == .endpointDisabled)
        #expect(try await store.disabledWebhookEndpoints() == [endpoint.id])

        let second = try await Live.start(app, number: "+99012345676")
        try await Live.cancel(app, second)
        let skipped = try #require(await attempts.next())
        #expect(skipped.verificationId == second && skipped.result == .endpointDisabled && skipped.statusCode == nil)
        #expect(sink.requests.count == 1)
        #expect(try await store.outboxMessages(verificationId: second).map(\.state) == [.disabled])
        await app.shutdown()
        await sink.stop()
    }

    @Test("a message still owed when the server stops is delivered by the next one on the same SQLite file")
    func survivesRestart() async throws {
        let sink = try WebhookSink(statuses: [500])
        let clock = ManualClock()
        let path = Live.temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let endpoint = WebhookEndpoint(url: sink.url, secrets: Live.secrets, events: [.cancelled])
        let configuration = Live.configuration(endpoints: [endpoint])

        let before = try await Live.application(configuration, store: try SQLiteVerificationStore(path: path), clock: clock)
        var attempts = try #require(before.webhookAttempts).makeAsyncIterator()
        let id = try await Live.start(before)
        try await Live.cancel(before, id)
        #expect(try #require(await attempts.next()).statusCode == 500)
        await before.shutdown()

        sink.answer([204])
        let store = try SQLiteVerificationStore(path: path)
        let after = try await Live.application(configuration, store: store, clock: clock)
        var resumed = try #require(after.webhookAttempts).makeAsyncIterator()
        clock.advance(by: 5)
        let delivered = try #require(await resumed.next())
        #expect(delivered.result == .delivered && delivered.attempt == 2 && delivered.verificationId == id)
        let ids = sink.requests.compactMap { $0.header("webhook-id") }
        #expect(ids.count == 2 && ids[0] == ids[1])
        #expect(try await store.outboxMessages(verificationId: id).map(\.state) == [.delivered])
        await after.shutdown()
        await sink.stop()
    }

    @Test("a target on a private address is refused without sending anything when private targets are not allowed")
    func refusesPrivateTarget() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let endpoint = WebhookEndpoint(url: "http://10.0.0.1/hooks", secrets: Live.secrets, events: [.cancelled])
        let app = try await Live.application(Live.configuration(endpoints: [endpoint], allowPrivate: false), store: store, clock: clock)
        var attempts = try #require(app.webhookAttempts).makeAsyncIterator()
        let id = try await Live.start(app)
        try await Live.cancel(app, id)
        let attempt = try #require(await attempts.next())
        #expect(attempt.result == .refused && attempt.statusCode == nil)
        #expect(try await store.outboxMessages(verificationId: id).map(\.state) == [.dead])
        #expect(Array(try await Live.labels(app, id, store: store).suffix(2)) == ["webhook:failed", "verification:summary"])
        await app.shutdown()
    }
}
