import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitTesting
@testable import TacitProvidersCAMARA

/// The request shapes Tacit sends a CAMARA operator, checked field by field.
@Suite("CAMARA request shapes and the client assertion")
struct CamaraRequestTests {
    @Test("the check URL is the operator's authorization endpoint with code flow, the NV scope, tel: login_hint, prompt=none, a nonce and an S256 challenge")
    func authorizationURL() async throws {
        let fixture = try await CamaraFixture()
        let request = SilentCheckRequest(verificationId: "vf_a", step: 1, phoneNumber: CamaraFixture.number,
                                         expiresAt: fixture.clock.now().addingTimeInterval(60), callbackURL: fixture.settings.redirectURI)
        guard case .issued(let url, let events) = await fixture.provider.silentAuth.begin(request) else {
            Issue.record("the check was not issued")
            return
        }
        #expect(url.hasPrefix("http://127.0.0.1:9/oidc/authorize?"))
        let query = CamaraFixture.query(url)
        #expect(query["response_type"] == "code" && query["client_id"] == "tacit-client" && query["prompt"] == "none")
        #expect(query["scope"] == "openid dpv:FraudPreventionAndDetection number-verification:verify")
        #expect(query["login_hint"] == "tel:+447700900123")
        #expect(query["code_challenge_method"] == "S256")
        let nonce = try #require(query["nonce"])
        let verifier = CamaraAuthorization.verifier(nonce: nonce, key: fixture.settings.flowKey)
        #expect(query["code_challenge"] == Base64.urlEncode(SHA256.hash(Array(verifier.utf8))))
        #expect(verifier.count == 43 && CamaraAuthorization.nonce(in: url) == nonce)
        // The silent flow appends these two when the device opens its check URL.
        #expect(query["redirect_uri"] == nil && query["state"] == nil)
        #expect(events.map(\.label) == ["silent_auth:provider_challenge"])
    }

    @Test("a check whose callback is not the registered redirect URI is not begun")
    func unregisteredCallback() async throws {
        let fixture = try await CamaraFixture()
        let request = SilentCheckRequest(verificationId: "vf_a", step: 1, phoneNumber: CamaraFixture.number,
                                         expiresAt: fixture.clock.now(), callbackURL: "https://elsewhere.example/v1/silent/callback")
        #expect(await fixture.provider.silentAuth.begin(request) == .failed(.unavailable, events: [CamaraNotes.callbackUnregistered]))
        #expect(fixture.http.requests.isEmpty)
    }

    @Test("discovery refuses a document naming another issuer, so no check is begun")
    func otherIssuer() async throws {
        let fixture = try await CamaraFixture()
        fixture.answer("/oidc/.well-known/openid-configuration", CamaraFixture.json(200, [
            "issuer": "http://127.0.0.1:9/other", "authorization_endpoint": "http://127.0.0.1:9/oidc/authorize",
            "token_endpoint": "http://127.0.0.1:9/oidc/token",
        ]))
        let request = SilentCheckRequest(verificationId: "vf_a", step: 1, phoneNumber: CamaraFixture.number,
                                         expiresAt: fixture.clock.now(), callbackURL: fixture.settings.redirectURI)
        #expect(await fixture.provider.silentAuth.begin(request) == .failed(.carrierError, events: [CamaraNotes.discoveryFailed]))
    }

    @Test("the verify body is the number, or with hashing its SHA-256 hex with the +, never both")
    func verifyBody() {
        #expect(CamaraVerifyClient.body(phoneNumber: "+447700900123", hashed: false).map(\.0) == ["phoneNumber"])
        let hashed = CamaraVerifyClient.body(phoneNumber: "+447700900123", hashed: true)
        #expect(hashed.map(\.0) == ["hashedPhoneNumber"])
        #expect(hashed.first?.1 == .string(Hex.encode(SHA256.hash(Array("+447700900123".utf8)))))
    }

    @Test("the SIM swap body carries maxAge in hours, kept within the API's 1 to 2400", arguments: [(240, 240.0), (0, 1.0), (5000, 2400.0)])
    func simSwapBody(hours: Int, sent: Double) {
        let body = CamaraSimSwap.body(phoneNumber: "+447700900123", maxAgeHours: hours)
        #expect(body.map(\.0) == ["phoneNumber", "maxAge"] && body.last?.1 == .number(sent))
    }

    @Test("the client assertion is an RS256 JWT from the client to the endpoint, with a jti and at most 300 seconds of life")
    func assertion() async throws {
        let fixture = try await CamaraFixture(keyId: "key-2026")
        let now = fixture.clock.now()
        let token = try CamaraClientAssertion.token(fixture.settings, audience: "http://127.0.0.1:9/oidc/token", now: now, jti: "j-1")
        let claims = try JWT.verify(token: token, publicKey: fixture.publicKey, now: now)
        #expect(claims["iss"] == "tacit-client" && claims["sub"] == "tacit-client")
        #expect(claims["aud"] == "http://127.0.0.1:9/oidc/token" && claims["jti"] == "j-1")
        let issued = try #require(claims["iat"]?.intValue), expiry = try #require(claims["exp"]?.intValue)
        #expect(issued == Int64(now.timeIntervalSince1970) && expiry > issued && expiry - issued <= 300)
        let header = try #require(Base64.urlDecode(String(token.prefix { $0 != "." })))
        let fields = try JSONDecoder().decode([String: JWTValue].self, from: Data(header))
        #expect(fields == ["alg": "RS256", "typ": "JWT", "kid": "key-2026"])
    }
}
