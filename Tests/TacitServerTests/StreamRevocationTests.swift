import Foundation
import Testing
import TacitCore
import TacitServer
import TacitStore
import TacitStorePostgres
import TacitStoreSQLite
import TacitTesting

/// Revoking an application, or one of its keys, ends the live event streams that key
/// holds open within a second (`OpenStreams`), whichever process made the revocation:
/// streams over real loopback HTTP, the revocation through another handle on the same
/// database (as `tacit apps revoke` makes it), time moved by the test's clock.
@Suite("Revocation ends open event streams", .timeLimit(.minutes(1)))
struct StreamRevocationTests {
    enum Kind: String, CaseIterable, Sendable { case sqlite, postgres }
    static var kinds: [Kind] { Kind.allCases.filter { $0 == .sqlite || PostgresCluster.enabled } }
    typealias Handle = any VerificationStore & KeyStore & ApplicationStore

    /// A production server over loopback on `kind`, with two applications, and a second
    /// handle on its database standing in for the command that revokes.
    static func serve(_ kind: Kind,
                      _ body: (TestApplication, TestClient, TenantFixtures.Tenants, Handle) async throws -> Void)
        async throws {
        var url: String?
        let store: (any VerificationStore)? = switch kind {
        case .sqlite: nil
        case .postgres: try await { () async throws -> any VerificationStore in
            let made = try await PostgresCluster.makeStore()
            url = made.url
            return made.store
        }()
        }
        try await TestApplication.test(.live, store: store, configure: { configuration, dependencies in
            configuration.dev = false
            dependencies.codes = .fixed("123456")
        }) { app, client in
            let tenants = try await TenantFixtures.tenants(app)
            let other: any VerificationStore = switch kind {
            case .sqlite: try SQLiteVerificationStore(path: app.databasePath)
            case .postgres: PostgresVerificationStore(url: url!, poolSize: 1)
            }
            try await body(app, client, tenants, try #require(other as? Handle))
        }
    }

    static func start(_ client: TestClient, key: String) async throws -> String {
        let reply = try await client.send(
            "POST", "/v1/verifications",
            body: Data(#"{"phone_number":"+447911123456","workflow":[{"channel":"sms"},{"channel":"voice"}]}"#.utf8),
            headers: ["Authorization": "Bearer \(key)"])
        return try #require(reply.string("request_id"), "\(reply.status) \(reply.text)")
    }

    static func probe(_ app: TestApplication, _ id: String, key: String) -> TimelineSSEProbe {
        TimelineSSEProbe(URL(string: app.baseURL)!, id: id, authorization: "Bearer \(key)")
    }

    @Test("revoking an application ends its open streams within a second, and nothing after the revoke reaches them; another application's stream goes on", arguments: kinds)
    func applicationRevokeEndsStreams(kind: Kind) async throws {
        try await Self.serve(kind) { app, client, tenants, other in
            let revoked = try await Self.start(client, key: tenants.keyA)
            let kept = try await Self.start(client, key: tenants.keyB)
            let streamA = Self.probe(app, revoked, key: tenants.keyA)
            let streamB = Self.probe(app, kept, key: tenants.keyB)
            _ = try await streamA.messages { $0.label == "sms:code_sent" }
            _ = try await streamB.messages { $0.label == "sms:code_sent" }
            #expect(try await ApplicationManager.open(store: other).revoke(id: tenants.a.id))
            app.clock.advance(by: 1)
            let afterRevoke = try await streamA.messages()
            #expect(afterRevoke.isEmpty, "the stream ended with nothing more: \(afterRevoke.map(\.data))")
            // A's verification goes on (its timer moves it to voice), unseen by the ended stream.
            app.clock.advance(by: 60)
            await app.sender.waitFor(3)
            #expect(!streamA.received.contains("voice:"))
            // B's stream is still open and sees B's verification to its end.
            let cancel = try await client.send("DELETE", "/v1/verifications/\(kept)",
                                               headers: ["Authorization": "Bearer \(tenants.keyB)"])
            #expect(cancel.status == 204)
            let rest = try await streamB.messages { $0.label == "verification:summary" }
            #expect(rest.last?.label == "verification:summary")
        }
    }

    @Test("revoking one key ends the streams it opened within a second; a stream another key of the same application opened goes on")
    func keyRevokeEndsItsStreams() async throws {
        try await Self.serve(.sqlite) { app, client, tenants, other in
            let keys = try await KeyManager.open(store: other)
            let second = try await keys.create(name: "second", application: tenants.a.id)
            let id = try await Self.start(client, key: tenants.keyA)
            let first = Self.probe(app, id, key: tenants.keyA)
            let kept = Self.probe(app, id, key: second.secret)
            _ = try await first.messages { $0.label == "sms:code_sent" }
            _ = try await kept.messages { $0.label == "sms:code_sent" }
            let revokedId = try #require(try await other.keys().first { $0.applicationId == tenants.a.id && $0.name != "second" }?.id)
            #expect(try await keys.revoke(id: revokedId))
            app.clock.advance(by: 1)
            #expect(try await first.messages().isEmpty)
            app.clock.advance(by: 60)
            let rest = try await kept.messages { $0.label == "voice:code_sent" }
            #expect(rest.last?.label == "voice:code_sent")
            #expect(!first.received.contains("voice:"))
        }
    }
}
