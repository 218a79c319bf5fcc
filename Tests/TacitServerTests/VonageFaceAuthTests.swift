import Foundation
import TacitCrypto
@testable import TacitFaceVonage
@testable import TacitServer
import TacitTesting
import Testing

/// The face takes a Vonage application JWT (RS256, checked with the application's
/// registered public key; `exp`, an `iat` window, a `jti` good once) or Basic
/// `api_key:api_secret`, and refuses anything else with Vonage's 401.
@Suite("Vonage face: authentication", .timeLimit(.minutes(1)))
struct VonageFaceAuthTests {
    static let start = try! JSONSerialization.data(withJSONObject: ["brand": "Acme", "workflow": [["channel": "sms", "to": "99012345672"]]])

    static func post(_ client: TestClient, _ authorization: String?) async throws -> TestResponse {
        try await client.send("POST", "/v2/verify", body: start, headers: authorization.map { ["Authorization": $0] } ?? [:])
    }

    @Test("the SDK's JWT and Basic api_key:api_secret both start a verification for their application")
    func goodCredentials() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let tenants = try await VonageFaceFixtures.make(app)
            let jwt = try await Self.post(client, "Bearer " + tenants.jwt(tenants.credentialsA.vonageApplicationId, now: app.clock.now()))
            #expect(jwt.status == 202)
            let id = try #require(jwt.string("request_id"))
            #expect(try await app.store.verification(id: id)?.applicationId == tenants.a.id)
            _ = try await client.send("DELETE", "/v2/verify/\(id)", headers: ["Authorization": VonageFaceFixtures.basic(tenants.credentialsA)])
            let basic = try await Self.post(client, VonageFaceFixtures.basic(tenants.credentialsB))
            #expect(basic.status == 202, "\(basic.text)")
            #expect(try await app.store.verification(id: #require(basic.string("request_id")))?.applicationId == tenants.b.id)
        }
    }

    @Test("an expired JWT, one issued too long ago, a replayed jti, a wrong key, an unknown application, a bad secret and none are each 401")
    func badCredentials() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let tenants = try await VonageFaceFixtures.make(app)
            let now = app.clock.now()
            let wrongKey = try RSAPrivateKey(pem: VonageFaceFixtures.unregisteredKey)
            let replayed = try tenants.jwt(tenants.credentialsA.vonageApplicationId, now: now, jti: "once")
            #expect(try await Self.post(client, "Bearer " + replayed).status == 202)
            let cases: [(String, String?)] = [
                ("expired", "Bearer " + (try tenants.jwt(tenants.credentialsA.vonageApplicationId, now: now.addingTimeInterval(-1000)))),
                ("issued too long ago", "Bearer " + (try tenants.jwt(tenants.credentialsA.vonageApplicationId, now: now.addingTimeInterval(-1000), lifetime: 4000))),
                ("replayed jti", "Bearer " + replayed),
                ("wrong key", "Bearer " + (try tenants.jwt(tenants.credentialsA.vonageApplicationId, now: now, key: wrongKey))),
                ("unknown application", "Bearer " + (try tenants.jwt(UUID().uuidString.lowercased(), now: now))),
                ("not a JWT", "Bearer " + tenants.credentialsA.apiKey),
                ("bad secret", VonageFaceFixtures.basic(tenants.credentialsA, secret: "wrong-secret")),
                ("unknown api_key", "Basic " + Base64.encode(Array("nobody:secret".utf8))),
                ("none", nil),
            ]
            for (label, authorization) in cases {
                let reply = try await Self.post(client, authorization)
                #expect(reply.status == 401, "\(label)")
                #expect(reply.header("content-type") == "application/problem+json", "\(label)")
                #expect(reply.string("title") == "Unauthorized", "\(label)")
            }
            let expired = try await Self.post(client, "Bearer " + (try tenants.jwt(tenants.credentialsA.vonageApplicationId, now: now.addingTimeInterval(-1000))))
            #expect(expired.string("type")?.hasSuffix("#jwt-expired") == true)
        }
    }

    @Test("the jti cache keeps a token only while its iat window lasts, and a full cache refuses what is older than what it let go")
    func replayCacheIsBounded() {
        let cache = JTIReplayCache(capacity: 2, window: 900)
        let start = Date(timeIntervalSince1970: 1_000_000)
        #expect(cache.admit("a", application: "app", issuedAt: start, now: start))
        #expect(!cache.admit("a", application: "app", issuedAt: start, now: start))
        #expect(cache.admit("b", application: "app", issuedAt: start.addingTimeInterval(1), now: start))
        #expect(cache.admit("c", application: "app", issuedAt: start.addingTimeInterval(2), now: start))
        #expect(cache.count == 2)
        #expect(!cache.admit("a", application: "app", issuedAt: start, now: start),
                "older than the floor the eviction raised")
        #expect(!cache.admit("c", application: "app", issuedAt: start.addingTimeInterval(2), now: start))
        #expect(cache.admit("d", application: "app", issuedAt: start.addingTimeInterval(2000),
                            now: start.addingTimeInterval(2000)))
        #expect(cache.count == 1, "entries past the window are gone")
    }

    @Test("tokens one application dates up to the clock skew ahead raise only its own floor: another application's fresh tokens still pass")
    func futureIssueTimesStayWithTheirApplication() {
        let cache = JTIReplayCache(capacity: 2, window: 900)
        let now = Date(timeIntervalSince1970: 1_000_000)
        for jti in ["ahead-1", "ahead-2", "ahead-3"] {
            #expect(cache.admit(jti, application: "mallory", issuedAt: now.addingTimeInterval(60), now: now))
        }
        #expect(!cache.admit("fresh", application: "mallory", issuedAt: now.addingTimeInterval(1),
                             now: now.addingTimeInterval(1)), "its own floor moved ahead")
        for second in 1...5 {
            let at = now.addingTimeInterval(TimeInterval(second))
            #expect(cache.admit("fresh-\(second)", application: "shop", issuedAt: at, now: at),
                    "another application's fresh token at +\(second)s")
        }
        #expect(!cache.admit("ahead-1", application: "mallory", issuedAt: now.addingTimeInterval(60),
                             now: now.addingTimeInterval(2)), "an evicted token is still refused")
    }
}
