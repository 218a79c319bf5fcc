import Foundation
import Testing
@testable import TacitServer
import TacitCore
import TacitCrypto
import TacitStore
import TacitStoreSQLite
import TacitTesting

@Suite("Webhook signing, retry schedule, target guard and outbox atomicity")
struct WebhookUnitTests {
    @Test("every configured secret signs the delivery and each signature verifies; a changed body verifies under none")
    func signaturesBothWays() throws {
        let clock = ManualClock()
        let endpoint = WebhookEndpoint(url: "http://127.0.0.1:1/h", secrets: WebhookFixtures.secrets)
        let dispatcher = WebhookDispatcher(store: InMemoryStore(), clock: clock, settings: WebhookSettings(),
                                           httpClient: RecordingHTTPClient(), random: { 0.5 }, timeline: { _, _ in })
        let message = OutboxMessage(id: "msg_abc", endpoint: endpoint.id, verificationId: "vf_1", type: "verification.completed",
                                    payload: Array(#"{"type":"verification.completed"}"#.utf8), createdAt: clock.now())
        let headers = Dictionary(dispatcher.headers(message, endpoint), uniquingKeysWith: { $1 })
        let signature = try #require(headers["webhook-signature"])
        #expect(signature.split(separator: " ").count == 2)
        let timestamp = try #require(headers["webhook-timestamp"])
        #expect(timestamp == String(Int64(clock.now().timeIntervalSince1970)))
        for secret in WebhookFixtures.secrets {
            try StandardWebhooks.verify(secret: secret, id: "msg_abc", timestamp: timestamp, signatures: signature,
                                        body: message.payload, now: clock.now())
            #expect(throws: WebhookSignatureError.self) {
                try StandardWebhooks.verify(secret: secret, id: "msg_abc", timestamp: timestamp, signatures: signature,
                                            body: message.payload + [0x20], now: clock.now())
            }
        }
    }

    @Test("a signature made by the reference algorithm verifies against the dispatcher's headers")
    func referenceVector() throws {
        // HMAC-SHA256(key, "id.timestamp.body"), base64: the Standard Webhooks construction, computed independently.
        let secret = WebhookFixtures.secrets[0]
        let key = try #require(Base64.decode(String(secret.dropFirst(6))))
        let body = Array(#"{"a":1}"#.utf8)
        let expected = "v1," + Base64.encode(HMAC.sha256(key: key, message: Array("msg_x.1796000000.".utf8) + body))
        #expect(try StandardWebhooks.sign(secret: secret, id: "msg_x", timestamp: 1_796_000_000, body: body) == expected)
    }

    @Test("retries back off from 5 seconds by a factor of 4, capped at 6 hours, and stop after 8 attempts")
    func retrySchedule() {
        let policy = WebhookRetryPolicy()
        let delays = (1...8).map { policy.delay(afterAttempt: $0, random: 0.5) }
        #expect(delays == [5, 20, 80, 320, 1280, 5120, 20480, nil])
        #expect(policy.delay(afterAttempt: 1, random: 0) == 4)
        #expect(policy.delay(afterAttempt: 7, random: 0.999)! <= 6 * 3600)
    }

    @Test("private, loopback, link-local, multicast and unspecified literals are refused", arguments: [
        "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "127.0.0.1", "169.254.169.254", "0.0.0.0",
        "100.64.0.1", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd12::1", "ff02::1",
        "::ffff:10.0.0.1", "::ffff:127.0.0.1", "[::1]",
    ])
    func refusesNonPublic(host: String) {
        #expect(WebhookTargetGuard(allowPrivate: false).refusal(host: host) != nil)
    }

    @Test("public literals pass the guard, and allowing private targets lets loopback through", arguments: [
        "93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111",
    ])
    func allowsPublic(host: String) {
        #expect(WebhookTargetGuard(allowPrivate: false).refusal(host: host) == nil)
        #expect(WebhookTargetGuard(allowPrivate: true).refusal(host: "127.0.0.1") == nil)
    }

    @Test("a store write that fails leaves no outbox row, no event and no change behind")
    func outboxRollsBackWithTheChange() async throws {
        let path = WebhookFixtures.temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteVerificationStore(path: path)
        try await store.migrate()
        store.protect(with: ServerSecrets(master: Array(repeating: 1, count: 32)).fieldProtection)
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        let draft = Verification(id: "vf_atomic", phoneNumber: "+99012345670", options: VerificationOptions(),
                                 clientTokenHash: [1], createdAt: now)
        let row = OutboxMessage(id: "msg_one", endpoint: "ep_x", verificationId: "vf_atomic", type: "verification.cancelled",
                                payload: [], createdAt: now)
        _ = try await store.insert(draft, events: [], outbox: [row], at: now, idempotency: nil)

        await #expect(throws: (any Error).self) {
            _ = try await store.update(id: "vf_atomic", at: now) { verification in
                var machine = WorkflowMachine(verification, now: now)
                _ = machine.handle(.cancel)
                verification = machine.verification
                // The second row reuses an id, so its insert fails after the change and the first row were written.
                var again = row
                again.id = "msg_two"
                return StoreChange((), events: [EventDraft("x", note: "y")], outbox: [again, row])
            }
        }
        #expect(try await store.verification(id: "vf_atomic")?.status == .pending)
        #expect(try await store.events(id: "vf_atomic", after: 0, limit: 10).isEmpty)
        #expect(try await store.outboxMessages(verificationId: "vf_atomic").map(\.id) == ["msg_one"])

        let clash = Verification(id: "vf_clash", phoneNumber: "+99012345670", options: VerificationOptions(),
                                 clientTokenHash: [2], createdAt: now)
        var orphan = row
        orphan.id = "msg_orphan"
        orphan.verificationId = "vf_clash"
        await #expect(throws: StoreError.concurrentVerification) {
            _ = try await store.insert(clash, events: [], outbox: [orphan], at: now, idempotency: nil)
        }
        #expect(try await store.outboxMessage(id: "msg_orphan") == nil)
    }

    @Test("claimed messages are leased: a second claim gets nothing until the lease runs out")
    func claimLeases() async throws {
        let store = InMemoryStore()
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        let draft = Verification(id: "vf_l", phoneNumber: "+99012345670", options: VerificationOptions(), clientTokenHash: [1], createdAt: now)
        let row = OutboxMessage(id: "msg_l", endpoint: "ep", verificationId: "vf_l", type: "t", payload: [], createdAt: now)
        _ = try await store.insert(draft, events: [], outbox: [row], at: now, idempotency: nil)
        #expect(try await store.claimOutbox(now: now, lease: 60, limit: 10).map(\.id) == ["msg_l"])
        #expect(try await store.claimOutbox(now: now.addingTimeInterval(59), lease: 60, limit: 10).isEmpty)
        #expect(try await store.claimOutbox(now: now.addingTimeInterval(60), lease: 60, limit: 10).map(\.id) == ["msg_l"])
    }
}
