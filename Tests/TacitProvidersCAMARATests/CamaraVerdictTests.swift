import Foundation
import Synchronization
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitTesting
@testable import TacitProvidersCAMARA

/// The callback's verdict: the code redeemed once with the flow's PKCE verifier and a
/// client assertion, then one `POST /verify` for the flow's number.
@Suite("CAMARA Number Verification verdicts at Tacit's callback")
struct CamaraVerdictTests {
    /// Begins a check and returns the callback the operator's redirect would bring.
    static func callback(_ fixture: CamaraFixture, query: [String: String],
                         notes: NoteLog = NoteLog()) async throws -> SilentCallback {
        let request = SilentCheckRequest(verificationId: "vf_a", step: 1, phoneNumber: CamaraFixture.number,
                                         expiresAt: fixture.clock.now().addingTimeInterval(60), callbackURL: fixture.settings.redirectURI)
        guard case .issued(let url, _) = await fixture.provider.silentAuth.begin(request) else { throw CancellationError() }
        return SilentCallback(query: query, phoneNumber: { $0 == "cu_state" ? CamaraFixture.number : nil },
                              issuedURL: { $0 == "cu_state" ? url : nil },
                              note: { state, event in notes.append(state, event) })
    }

    /// The events a reader put on a check's timeline, by the check's state.
    final class NoteLog: Sendable {
        private let entries = Mutex<[(String, EventDraft)]>([])
        func append(_ state: String, _ event: EventDraft) { entries.withLock { $0.append((state, event)) } }
        var all: [(String, EventDraft)] { entries.withLock { $0 } }
    }

    static let issuedToken = CamaraFixture.json(200, ["access_token": "at-nv-1", "token_type": "Bearer", "expires_in": 300])

    @Test("devicePhoneNumberVerified true is a match, false a mismatch", arguments: [(true, SilentVerdict.Result.match), (false, .noMatch)])
    func verdicts(verified: Bool, result: SilentVerdict.Result) async throws {
        let fixture = try await CamaraFixture()
        fixture.answer("/oidc/token", Self.issuedToken)
        fixture.answer("/api/number-verification/v2/verify", CamaraFixture.json(200, ["devicePhoneNumberVerified": verified]))
        let callback = try await Self.callback(fixture, query: ["code": "c-1", "state": "cu_state"])
        let verdict = await fixture.provider.verdicts.verdict(for: callback)
        #expect(verdict == SilentVerdict(result: result, state: "cu_state", session: nil, expires: nil))
    }

    @Test("the token request redeems the code for the registered redirect URI with the verifier of the flow's challenge and a client assertion")
    func tokenRequest() async throws {
        let fixture = try await CamaraFixture()
        fixture.answer("/oidc/token", Self.issuedToken)
        fixture.answer("/api/number-verification/v2/verify", CamaraFixture.json(200, ["devicePhoneNumberVerified": true]))
        let callback = try await Self.callback(fixture, query: ["code": "c-1", "state": "cu_state"])
        _ = await fixture.provider.verdicts.verdict(for: callback)
        let issued = try #require(await callback.issuedURL("cu_state"))
        let form = CamaraFixture.form(try #require(fixture.requests(to: "/oidc/token").first))
        #expect(form["grant_type"] == "authorization_code" && form["code"] == "c-1")
        #expect(form["redirect_uri"] == "https://tacit.example/v1/silent/callback")
        let verifier = try #require(form["code_verifier"])
        #expect(CamaraAuthorization.challenge(verifier: verifier) == CamaraFixture.query(issued)["code_challenge"])
        #expect(form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        let claims = try JWT.verify(token: try #require(form["client_assertion"]), publicKey: fixture.publicKey, now: fixture.clock.now())
        #expect(claims["aud"] == "http://127.0.0.1:9/oidc/token")
        let verify = try #require(fixture.requests(to: "/api/number-verification/v2/verify").first)
        #expect(verify.headers.first { $0.0 == "Authorization" }?.1 == "Bearer at-nv-1")
        #expect(CamaraFixture.body(verify) == ["phoneNumber": .string(CamaraFixture.number)])
    }

    @Test("with TACIT_CAMARA_VERIFY_HASHED the number goes as its SHA-256 hex, not in the clear")
    func hashed() async throws {
        let fixture = try await CamaraFixture(hashed: true)
        fixture.answer("/oidc/token", Self.issuedToken)
        fixture.answer("/api/number-verification/v2/verify", CamaraFixture.json(200, ["devicePhoneNumberVerified": true]))
        let callback = try await Self.callback(fixture, query: ["code": "c-1", "state": "cu_state"])
        #expect(await fixture.provider.verdicts.verdict(for: callback)?.result == .match)
        let verify = try #require(fixture.requests(to: "/api/number-verification/v2/verify").first)
        #expect(CamaraFixture.body(verify) == ["hashedPhoneNumber": .string(Hex.encode(SHA256.hash(Array(CamaraFixture.number.utf8))))])
        #expect(!String(decoding: verify.body, as: UTF8.self).contains(CamaraFixture.number))
    }

    @Test("a code the token endpoint refuses (spent, expired, another flow's) gives no verdict and no verify call")
    func refusedCode() async throws {
        let fixture = try await CamaraFixture()
        fixture.answer("/oidc/token", CamaraFixture.json(400, ["error": "invalid_grant"]))
        let callback = try await Self.callback(fixture, query: ["code": "c-1", "state": "cu_state"])
        #expect(await fixture.provider.verdicts.verdict(for: callback) == nil)
        #expect(fixture.requests(to: "/api/number-verification/v2/verify").isEmpty)
    }

    @Test("a state Tacit did not seal gives no verdict and spends no code")
    func unknownState() async throws {
        let fixture = try await CamaraFixture()
        let callback = try await Self.callback(fixture, query: ["code": "c-1", "state": "cu_other"])
        #expect(await fixture.provider.verdicts.verdict(for: callback) == nil)
        #expect(fixture.requests(to: "/oidc/token").isEmpty)
    }

    @Test("prompt=none errors say the operator could not place the device: not cellular; other errors give no verdict")
    func errors() async throws {
        let fixture = try await CamaraFixture()
        let unplaced = try await Self.callback(fixture, query: ["error": "login_required", "state": "cu_state"])
        #expect(await fixture.provider.verdicts.verdict(for: unplaced)?.result == .notCellular)
        let other = try await Self.callback(fixture, query: ["error": "server_error", "state": "cu_state"])
        #expect(await fixture.provider.verdicts.verdict(for: other) == nil)
    }

    @Test("the operator's USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK is not cellular")
    func notOnNetwork() async throws {
        let fixture = try await CamaraFixture()
        fixture.answer("/oidc/token", Self.issuedToken)
        fixture.answer("/api/number-verification/v2/verify", CamaraFixture.json(403, [
            "status": 403, "code": "NUMBER_VERIFICATION.USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK", "message": "Client must authenticate via the mobile network",
        ]))
        let callback = try await Self.callback(fixture, query: ["code": "c-1", "state": "cu_state"])
        #expect(await fixture.provider.verdicts.verdict(for: callback)?.result == .notCellular)
    }

    @Test("a 200 without a boolean devicePhoneNumberVerified gives no verdict, never a match, and says why on the timeline",
          arguments: [[:], ["devicePhoneNumberVerified": "true"], ["devicePhoneNumber": "+447700900123"]] as [[String: String]])
    func answerWithoutVerdict(body: [String: String]) async throws {
        let fixture = try await CamaraFixture()
        fixture.answer("/oidc/token", Self.issuedToken)
        fixture.answer("/api/number-verification/v2/verify", CamaraFixture.json(200, body))
        let notes = NoteLog()
        let callback = try await Self.callback(fixture, query: ["code": "c-1", "state": "cu_state"], notes: notes)
        #expect(await fixture.provider.verdicts.verdict(for: callback) == nil)
        let noted = try #require(notes.all.first)
        #expect(notes.all.count == 1 && noted.0 == "cu_state")
        #expect(noted.1.label == "silent_auth:provider_verdict" && noted.1.outcome == .failure)
        #expect(noted.1.data["reason"] == .text("verdict_missing"))
    }
}
