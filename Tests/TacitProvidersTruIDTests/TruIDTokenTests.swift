import Foundation
import Testing
import TacitCore
import TacitTesting
@testable import TacitProvidersTruID

@Suite("tru.ID's access token")
struct TruIDTokenTests {
    private func tokenCalls(_ client: RecordingHTTPClient) -> Int {
        client.requests.filter { $0.url.path == "/oauth2/v1/token" }.count
    }

    @Test("one token serves every call until a minute before it expires, then a new one is fetched")
    func cachedUntilExpiry() async {
        let clock = ManualClock()
        let client = TruIDFixture.client { _ in TruIDFixture.created }
        let tokens = TruIDTokens(settings: TruIDFixture.settings, http: client, clock: clock)
        #expect(await tokens.token() == "2YotnFZFEjr1zCsicMWpAA")
        clock.advance(by: 3000)
        _ = await tokens.token()
        #expect(tokenCalls(client) == 1)
        clock.advance(by: 540)
        _ = await tokens.token()
        #expect(tokenCalls(client) == 2)
    }

    @Test("the token request is client credentials over HTTP Basic with the SubscriberCheck scope")
    func tokenRequestShape() async throws {
        let client = TruIDFixture.client { _ in TruIDFixture.created }
        let tokens = TruIDTokens(settings: TruIDFixture.settings, http: client, clock: ManualClock())
        _ = await tokens.token()
        let request = try #require(client.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://127.0.0.1:9/oauth2/v1/token")
        let basic = Data("client-id-1:client-secret-1".utf8).base64EncodedString()
        #expect(request.headers.contains { $0.0 == "Authorization" && $0.1 == "Basic \(basic)" })
        #expect(request.headers.contains { $0.0 == "Content-Type" && $0.1 == "application/x-www-form-urlencoded" })
        #expect(String(decoding: request.body, as: UTF8.self) == "grant_type=client_credentials&scope=subscriber_check")
    }

    @Test("a refused token request is not kept: the next call asks again")
    func failureNotCached() async {
        let client = TruIDFixture.client(token: TruIDFixture.json(401, #"{"error":"invalid_client"}"#)) { _ in TruIDFixture.created }
        let tokens = TruIDTokens(settings: TruIDFixture.settings, http: client, clock: ManualClock())
        #expect(await tokens.token() == nil)
        #expect(await tokens.token() == nil)
        #expect(tokenCalls(client) == 2)
    }

    @Test("a check refused with 401 discards the token and retries once with a fresh one")
    func refusedTokenRenewed() async {
        let client = TruIDFixture.client { request in
            request.headers.contains { $0.1 == "Bearer stale" } ? TruIDFixture.json(401, "{}") : TruIDFixture.created
        }
        let tokens = TruIDTokens(settings: TruIDFixture.settings, http: client, clock: ManualClock())
        let check = TruIDSubscriberCheck(settings: TruIDFixture.settings, http: client, tokens: tokens)
        client.answer { request in
            if request.url.path == "/oauth2/v1/token" {
                return client.requests.count == 1 ? TruIDFixture.token(value: "stale") : TruIDFixture.token(value: "fresh")
            }
            return request.headers.contains { $0.1 == "Bearer stale" } ? TruIDFixture.json(401, "{}") : TruIDFixture.created
        }
        guard case .issuedAtProvider(let challenge, _) = await check.begin(TruIDFixture.request()) else {
            Issue.record("no check issued")
            return
        }
        #expect(challenge.reference == TruIDFixture.checkId)
        #expect(tokenCalls(client) == 2)
    }
}
