import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitStoreSQLite
import TacitTesting

@Suite("Webhook delivery", .timeLimit(.minutes(1)))
struct WebhookDeliveryTests {
    @Test("a failing receiver is retried on the backoff schedule with the same webhook-id until it answers 2xx")
    func retriesUntilDelivered() async throws {
        let sink = try WebhookSink(statuses: [500, 503, 204])
        let store = InMemoryStore()
        let endpoint = WebhookEndpoint(url: sink.url, secrets: WebhookFixtures.secrets, events: [.cancelled])
        try await TestApplication.test(.inProcess, store: store, configure: { configuration, dependencies in
            WebhookFixtures.configure(&configuration, &dependencies, endpoints: [endpoint])
        }) { app, client in
            let clock = app.clock
            var attempts = try #require(app.application.webhookAttempts).makeAsyncIterator()
            let id = try await WebhookFixtures.start(client)
            try await WebhookFixtures.cancel(client, id)
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
            let labels = try await WebhookFixtures.labels(id, store: store)
            #expect(labels.filter { $0 == "webhook:failed" }.count == 2)
            // Each delivery result of the final webhook is followed by the summary again, so it stays last.
            #expect(Array(labels.suffix(6)) == ["webhook:failed", "verification:summary", "webhook:failed", "verification:summary",
                                                "webhook:delivered", "verification:summary"])
            #expect(try await store.outboxMessages(verificationId: id).map(\.state) == [.delivered])
        }
        await sink.stop()
    }

    @Test("the payload names the verification and its workflow, and carries no number, code or token")
    func payloadShape() async throws {
        let sink = try WebhookSink(statuses: [204])
        let endpoint = WebhookEndpoint(url: sink.url, secrets: WebhookFixtures.secrets, events: [.cancelled])
        try await TestApplication.test(.inProcess, store: InMemoryStore(), configure: { configuration, dependencies in
            WebhookFixtures.configure(&configuration, &dependencies, endpoints: [endpoint])
        }) { app, client in
            var attempts = try #require(app.application.webhookAttempts).makeAsyncIterator()
            let id = try await WebhookFixtures.start(client, number: "+99012345672")
            try await WebhookFixtures.cancel(client, id)
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
        }
        await sink.stop()
    }

    @Test("an endpoint that answers 410 Gone is disabled and gets nothing more")
    func goneDisables() async throws {
        let sink = try WebhookSink(statuses: [410])
        let store = InMemoryStore()
        let endpoint = WebhookEndpoint(url: sink.url, secrets: WebhookFixtures.secrets, events: [.cancelled])
        try await TestApplication.test(.inProcess, store: store, configure: { configuration, dependencies in
            WebhookFixtures.configure(&configuration, &dependencies, endpoints: [endpoint])
        }) { app, client in
            var attempts = try #require(app.application.webhookAttempts).makeAsyncIterator()
            let first = try await WebhookFixtures.start(client, number: "+99012345674")
            try await WebhookFixtures.cancel(client, first)
            #expect(try #require(await attempts.next()).result == .endpointDisabled)
            #expect(try await store.disabledWebhookEndpoints() == [endpoint.id])

            let second = try await WebhookFixtures.start(client, number: "+99012345676")
            try await WebhookFixtures.cancel(client, second)
            let skipped = try #require(await attempts.next())
            #expect(skipped.verificationId == second && skipped.result == .endpointDisabled && skipped.statusCode == nil)
            #expect(sink.requests.count == 1)
            #expect(try await store.outboxMessages(verificationId: second).map(\.state) == [.disabled])
        }
        await sink.stop()
    }

    @Test("a message still owed when the server stops is delivered by the next one on the same SQLite file")
    func survivesRestart() async throws {
        let sink = try WebhookSink(statuses: [500])
        let endpoint = WebhookEndpoint(url: sink.url, secrets: WebhookFixtures.secrets, events: [.cancelled])
        try await TestApplication.test(.inProcess, configure: { configuration, dependencies in
            WebhookFixtures.configure(&configuration, &dependencies, endpoints: [endpoint])
        }) { app, client in
            var attempts = try #require(app.application.webhookAttempts).makeAsyncIterator()
            let id = try await WebhookFixtures.start(client)
            try await WebhookFixtures.cancel(client, id)
            #expect(try #require(await attempts.next()).statusCode == 500)

            try await app.restart { sink.answer([204]) }
            var resumed = try #require(app.application.webhookAttempts).makeAsyncIterator()
            app.clock.advance(by: 5)
            let delivered = try #require(await resumed.next())
            #expect(delivered.result == .delivered && delivered.attempt == 2 && delivered.verificationId == id)
            let ids = sink.requests.compactMap { $0.header("webhook-id") }
            #expect(ids.count == 2 && ids[0] == ids[1])
            #expect(try await app.store.outboxMessages(verificationId: id).map(\.state) == [.delivered])
        }
        await sink.stop()
    }

    @Test("a target on a private address is refused without sending anything when private targets are not allowed")
    func refusesPrivateTarget() async throws {
        let store = InMemoryStore()
        let endpoint = WebhookEndpoint(url: "http://10.0.0.1/hooks", secrets: WebhookFixtures.secrets, events: [.cancelled])
        try await TestApplication.test(.inProcess, store: store, configure: { configuration, dependencies in
            WebhookFixtures.configure(&configuration, &dependencies, endpoints: [endpoint], allowPrivate: false)
        }) { app, client in
            var attempts = try #require(app.application.webhookAttempts).makeAsyncIterator()
            let id = try await WebhookFixtures.start(client)
            try await WebhookFixtures.cancel(client, id)
            let attempt = try #require(await attempts.next())
            #expect(attempt.result == .refused && attempt.statusCode == nil)
            #expect(try await store.outboxMessages(verificationId: id).map(\.state) == [.dead])
            #expect(Array(try await WebhookFixtures.labels(id, store: store).suffix(2)) == ["webhook:failed", "verification:summary"])
        }
    }
}
