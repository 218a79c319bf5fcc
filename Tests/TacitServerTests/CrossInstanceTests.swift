import Foundation
import Testing
import TacitCore
import TacitServer
import TacitStore
import TacitStorePostgres
import TacitTesting

/// Two applications on one PostgreSQL database are two instances (docs/api.md#several-instances-on-postgresql): what
/// one writes reaches the other's live streams and webhook worker through the store's
/// change feed, with no poll. A serves over loopback HTTP, since an SSE stream is read
/// off the wire; B (and C) take requests in process.
@Suite("Instances sharing a PostgreSQL store", .enabled(if: PostgresCluster.enabled), .timeLimit(.minutes(1)))
struct CrossInstanceTests {
    static let number = "+99012345641"
    typealias Configure = (inout ServerConfiguration, inout TacitApplication.Dependencies) -> Void

    struct Instances {
        let a: TestApplication, aClient: TestClient, aStore: PostgresVerificationStore
        let b: TestApplication, bClient: TestClient, bStore: PostgresVerificationStore
        let url: String
        var aURL: URL { URL(string: a.baseURL)! }
    }

    /// Runs `body` with A and B up on one fresh schema, on one clock and one secret.
    static func twoInstances(a configureA: Configure = { _, _ in }, b configureB: Configure = { _, _ in },
                             _ body: (Instances) async throws -> Void) async throws {
        let (aStore, url) = try await PostgresCluster.makeStore()
        let bStore = PostgresVerificationStore(url: url)
        let clock = ManualClock()
        try await TestApplication.test(.inProcess, clock: clock, store: bStore, configure: { configuration, dependencies in
            configuration.secret = "cross-instance-tests"
            configureB(&configuration, &dependencies)
        }) { b, bClient in
            try await TestApplication.test(.live, clock: clock, store: aStore, configure: { configuration, dependencies in
                configuration.secret = "cross-instance-tests"
                configureA(&configuration, &dependencies)
            }) { a, aClient in
                try await body(Instances(a: a, aClient: aClient, aStore: aStore, b: b, bClient: bClient, bStore: bStore, url: url))
            }
        }
    }

    static func eventCount(_ id: String, _ store: any VerificationStore) async throws -> Int {
        try await store.events(id: id, after: 0, limit: 1_000).count
    }

    @Test("an SSE subscriber on A gets every event written through B as B writes it, in order, once each")
    func streamAcrossInstances() async throws {
        try await Self.twoInstances { i in
            let (id, reply) = try await i.bClient.start(Self.number)
            #expect(reply.status == 202)
            let backlog = try await Self.eventCount(id, i.aStore)
            let probe = TimelineSSEProbe(i.aURL, id: id)
            let early = try await within(10) { try await probe.messages { $0.id == backlog } }
            // A follows the verification now; from here on it is written through B only.
            for _ in 0..<2 { _ = try await i.bClient.post("/v1/verifications/\(id)/check", json: ["code": "000000"]) }
            #expect(try await i.bClient.delete("/v1/verifications/\(id)").status == 204)
            let live = try await within(10) { try await probe.messages() }
            let total = try await Self.eventCount(id, i.bStore)
            #expect((early + live).compactMap(\.id) == Array(1...total))
            #expect(live.count == total - backlog && live.count >= 3)
            #expect(live.last?.label == "verification:summary")
        }
    }

    @Test("after A's listening connection is cut, A connects again and its subscriber catches up with what was written meanwhile")
    func catchUpAfterReconnect() async throws {
        try await Self.twoInstances { i in
            // C's writes send no notification (its session runs no triggers): no instance
            // hears them, as if they were written while A's connection was down.
            let quiet = PostgresVerificationStore(url: i.url + "%20-c%20session_replication_role%3Dreplica")
            try await TestApplication.test(.inProcess, clock: i.b.clock, store: quiet, configure: { configuration, _ in
                configuration.secret = "cross-instance-tests"
            }) { _, cClient in
                let (id, _) = try await i.bClient.start(Self.number)
                let probe = TimelineSSEProbe(i.aURL, id: id)
                let early = try await within(10) { [backlog = try await Self.eventCount(id, i.aStore)] in
                    try await probe.messages { $0.id == backlog }
                }
                _ = try await i.bClient.post("/v1/verifications/\(id)/check", json: ["code": "000000"])
                let heard = try await Self.eventCount(id, i.aStore)
                let live = try await within(10) { try await probe.messages { $0.id == heard } }
                #expect(!live.isEmpty, "A is listening: B's write came live")

                _ = try await cClient.post("/v1/verifications/\(id)/check", json: ["code": "000000"])
                #expect(try await cClient.delete("/v1/verifications/\(id)").status == 204)
                let pid = try #require(i.aStore.listenerBackendPID)
                let admin = PostgresPool(conninfo: i.url, size: 1)
                let ended = try await admin.withConnection { db in
                    try db.query("SELECT pg_terminate_backend(\(Int(pid))) AS ended").first?.bool("ended")
                }
                #expect(ended == true)
                let caughtUp = try await within(10) { try await probe.messages() }
                let total = try await Self.eventCount(id, i.aStore)
                #expect((early + live + caughtUp).compactMap(\.id) == Array(1...total))
                #expect(caughtUp.last?.label == "verification:summary")
                #expect(i.aStore.listenerBackendPID != pid)
            }
        }
    }

    static let endpoint = WebhookEndpoint(url: "http://127.0.0.1:9/hooks", secrets: WebhookFixtures.secrets, events: [.cancelled])

    /// Both deliver to `endpoint` through their recording clients; B runs no delivery worker.
    static func webhooks(_ configuration: inout ServerConfiguration, _: inout TacitApplication.Dependencies) {
        configuration.webhooks.endpoints = [endpoint]
        configuration.webhooks.allowPrivateTargets = true
    }

    static func quietB(_ configuration: inout ServerConfiguration, _ dependencies: inout TacitApplication.Dependencies) {
        webhooks(&configuration, &dependencies)
        configuration.webhooks.runsWorker = false
    }

    @Test("a webhook enqueued through B is delivered by A's worker at once, with B's worker off and A's clock never reaching its idle poll")
    func webhookRingsAcrossInstances() async throws {
        try await Self.twoInstances(a: Self.webhooks, b: Self.quietB) { i in
            let attempts = try #require(i.a.application.webhookAttempts)
            let (id, _) = try await i.bClient.start(Self.number)
            #expect(try await i.bClient.delete("/v1/verifications/\(id)").status == 204)
            let attempt = try await within(10) { () -> WebhookAttempt? in
                for await attempt in attempts { return attempt }
                return nil
            }
            #expect(attempt?.verificationId == id && attempt?.result == .delivered)
            let row = try #require(try await i.bStore.outboxMessages(verificationId: id).first)
            #expect(row.state == .delivered)
            #expect(i.a.httpClient.requests.map { $0.headers.first { $0.0 == "webhook-id" }?.1 } == [row.id])
            #expect(i.b.httpClient.requests.isEmpty)
        }
    }

    @Test("an endpoint disabled through B gets nothing from A, whose worker was running and had not heard of it")
    func disabledAcrossInstances() async throws {
        try await Self.twoInstances(a: Self.webhooks, b: Self.quietB) { i in
            let attempts = try #require(i.a.application.webhookAttempts)
            // What B's worker records when the endpoint answers 410 Gone.
            try await i.bStore.disableWebhookEndpoint(Self.endpoint.id, at: i.b.clock.now())
            let (id, _) = try await i.bClient.start(Self.number)
            #expect(try await i.bClient.delete("/v1/verifications/\(id)").status == 204)
            let attempt = try await within(10) { () -> WebhookAttempt? in
                for await attempt in attempts { return attempt }
                return nil
            }
            #expect(attempt?.verificationId == id && attempt?.result == .endpointDisabled && attempt?.statusCode == nil)
            #expect(i.a.httpClient.requests.isEmpty && i.b.httpClient.requests.isEmpty)
            #expect(try await i.aStore.outboxMessages(verificationId: id).map(\.state) == [.disabled])
        }
    }
}
