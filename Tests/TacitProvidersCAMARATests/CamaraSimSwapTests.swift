import Foundation
import Testing
import TacitCore
import TacitTesting
@testable import TacitProvidersCAMARA

/// SIM Swap through CIBA: bc-authorize, the token polled at the server's interval, the
/// check, and the token kept for the next check of the same number.
@Suite("CAMARA SIM Swap via CIBA")
struct CamaraSimSwapTests {
    static let authorized = CamaraFixture.json(200, ["auth_req_id": "ar-1", "expires_in": 120, "interval": 2])
    static let token = CamaraFixture.json(200, ["access_token": "at-ss-1", "token_type": "Bearer", "expires_in": 3600])

    @Test("bc-authorize names the number as tel:+… with the SIM swap scope, and the check sends maxAge with the CIBA token")
    func requests() async throws {
        let fixture = try await CamaraFixture()
        fixture.answer("/oidc/bc-authorize", Self.authorized)
        fixture.answer("/oidc/token", Self.token)
        fixture.answer("/api/sim-swap/v2/check", CamaraFixture.json(200, ["swapped": true]))
        #expect(await fixture.provider.simSwap.swapped(phoneNumber: CamaraFixture.number, maxAgeHours: 24) == true)
        let authorize = CamaraFixture.form(try #require(fixture.requests(to: "/oidc/bc-authorize").first))
        #expect(authorize["login_hint"] == "tel:+447700900123" && authorize["scope"] == "dpv:FraudPreventionAndDetection sim-swap:check")
        #expect(authorize["client_assertion"] != nil && authorize["client_id"] == "tacit-client")
        let poll = CamaraFixture.form(try #require(fixture.requests(to: "/oidc/token").first))
        #expect(poll["grant_type"] == "urn:openid:params:grant-type:ciba" && poll["auth_req_id"] == "ar-1")
        let check = try #require(fixture.requests(to: "/api/sim-swap/v2/check").first)
        #expect(check.headers.first { $0.0 == "Authorization" }?.1 == "Bearer at-ss-1")
        #expect(CamaraFixture.body(check) == ["phoneNumber": .string(CamaraFixture.number), "maxAge": .number(24)])
    }

    /// Waits for the first poll's answer to put the flow to sleep on the clock: the poll is
    /// the third request (discovery, bc-authorize, token), the sleep follows it at once.
    static func untilPolling(_ fixture: CamaraFixture) async {
        await fixture.http.waitFor(3)
        for _ in 0..<100_000 where fixture.clock.sleeperCount == 0 { await Task.yield() }
    }

    @Test("authorization_pending is polled again after the interval the server gave, on the clock")
    func pending() async throws {
        let fixture = try await CamaraFixture()
        fixture.answer("/oidc/bc-authorize", Self.authorized)
        fixture.answer("/oidc/token", CamaraFixture.json(400, ["error": "authorization_pending"]), Self.token)
        fixture.answer("/api/sim-swap/v2/check", CamaraFixture.json(200, ["swapped": false]))
        let check = Task { await fixture.provider.simSwap.swapped(phoneNumber: CamaraFixture.number, maxAgeHours: 240) }
        await Self.untilPolling(fixture)
        #expect(fixture.clock.nextDeadline == fixture.clock.now().addingTimeInterval(2))
        fixture.clock.advance(by: 2)
        #expect(await check.value == false)
        #expect(fixture.requests(to: "/oidc/token").count == 2)
    }

    @Test("a CIBA request still pending at its bound is can't-tell, not an answer")
    func bounded() async throws {
        let fixture = try await CamaraFixture()
        fixture.answer("/oidc/bc-authorize", CamaraFixture.json(200, ["auth_req_id": "ar-1", "expires_in": 3, "interval": 2]))
        fixture.answer("/oidc/token", CamaraFixture.json(400, ["error": "authorization_pending"]))
        let check = Task { await fixture.provider.simSwap.swapped(phoneNumber: CamaraFixture.number, maxAgeHours: 240) }
        await Self.untilPolling(fixture)
        fixture.clock.advance(by: 2)
        #expect(await check.value == nil)
        #expect(fixture.requests(to: "/api/sim-swap/v2/check").isEmpty)
    }

    @Test("the token is kept per number until shortly before it expires, then asked for again")
    func cached() async throws {
        let fixture = try await CamaraFixture()
        fixture.answer("/oidc/bc-authorize", Self.authorized)
        fixture.answer("/oidc/token", Self.token)
        fixture.answer("/api/sim-swap/v2/check", CamaraFixture.json(200, ["swapped": false]))
        _ = await fixture.provider.simSwap.swapped(phoneNumber: CamaraFixture.number, maxAgeHours: 240)
        _ = await fixture.provider.simSwap.swapped(phoneNumber: CamaraFixture.number, maxAgeHours: 240)
        #expect(fixture.requests(to: "/oidc/bc-authorize").count == 1)
        _ = await fixture.provider.simSwap.swapped(phoneNumber: "+447700900999", maxAgeHours: 240)
        #expect(fixture.requests(to: "/oidc/bc-authorize").count == 2)
        fixture.clock.advance(by: 3600 - CamaraTokenCache.margin)
        _ = await fixture.provider.simSwap.swapped(phoneNumber: CamaraFixture.number, maxAgeHours: 240)
        #expect(fixture.requests(to: "/oidc/bc-authorize").count == 3)
    }

    @Test("a refused CIBA request or a failed check is can't-tell", arguments: [400, 500])
    func failures(status: Int) async throws {
        let fixture = try await CamaraFixture()
        fixture.answer("/oidc/bc-authorize", Self.authorized)
        fixture.answer("/oidc/token", status == 400 ? CamaraFixture.json(400, ["error": "access_denied"]) : Self.token)
        fixture.answer("/api/sim-swap/v2/check", CamaraFixture.json(500, ["status": 500, "code": "INTERNAL", "message": "x"]))
        #expect(await fixture.provider.simSwap.swapped(phoneNumber: CamaraFixture.number, maxAgeHours: 240) == nil)
    }
}
