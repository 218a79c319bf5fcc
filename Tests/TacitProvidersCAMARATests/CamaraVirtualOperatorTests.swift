import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitKit
import TacitOperator
import TacitServer
import TacitTesting
@testable import TacitProvidersCAMARA

/// The CAMARA adapter against the virtual operator over loopback, as against a real
/// operator: discovery, the authorization-code flow from the device's cellular address,
/// the code redeemed with a `private_key_jwt` assertion and PKCE, one Number Verification call.
@Suite("CAMARA adapter through the virtual operator's code flow", .timeLimit(.minutes(1)))
struct CamaraVirtualOperatorTests {
    static let callback = "https://tacit.example/v1/silent/callback"
    static let cellular = SocketCellularTransport(sourceAddress: "127.0.0.2")
    static let wifi = SocketCellularTransport(sourceAddress: "127.0.0.1")

    struct Setup {
        let server: OperatorServer
        let provider: CamaraProvider
        let publicPEM: String
    }

    func withOperator(_ body: (Setup) async throws -> Void) async throws {
        let pair = try await OpenSSLKeys.shared()
        var configuration = OperatorConfiguration()
        configuration.clients = [OperatorClient(clientId: "tacit-dev", publicKey: try RSAPublicKey(pem: pair.publicPEM),
                                                redirectURIs: [Self.callback])]
        let server = OperatorServer(network: VirtualOperator(configuration: configuration, clock: SystemClock()))
        try server.start()
        let settings = CamaraSettings(issuer: server.baseURL + "/operator", clientId: "tacit-dev",
                                      signingKey: try CamaraSigningKey(pem: pair.privatePEM),
                                      apiURL: server.baseURL + "/camara", publicURL: "https://tacit.example")
        let provider = CamaraProvider(settings: settings, http: URLSessionHTTPClient(), clock: SystemClock())
        do { try await body(Setup(server: server, provider: provider, publicPEM: pair.publicPEM)) } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    /// Begins a check for `number` and walks the device through the operator's authorize
    /// endpoint, as Tacit's check link sends it there (with `redirect_uri` and `state`): the
    /// callback query the operator's redirect brings, and the URL the adapter issued.
    func authorize(_ setup: Setup, _ number: String,
                   over transport: SocketCellularTransport = Self.cellular) async throws -> ([String: String], String) {
        let request = SilentCheckRequest(verificationId: "vf_a", step: 0, phoneNumber: number,
                                         expiresAt: Date().addingTimeInterval(60), callbackURL: Self.callback)
        guard case .issued(let url, _) = await setup.provider.silentAuth.begin(request) else {
            throw CancellationError()
        }
        #expect(url.hasPrefix(setup.server.baseURL + "/operator/authorize?"))
        let link = url + "&redirect_uri=" + Self.callback.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&state=st_1"
        let response = try await transport.send(CellularRequest(url: URL(string: link)!))
        #expect(response.status == 302)
        let location = try #require(response.header("location"))
        #expect(location.hasPrefix(Self.callback + "?"))
        return (CamaraFixture.query(location), url)
    }

    func verdict(_ setup: Setup, _ query: [String: String], number: String, issued: String) async -> SilentVerdict? {
        await setup.provider.verdicts.verdict(for: SilentCallback(
            query: query, phoneNumber: { _ in number }, issuedURL: { _ in issued }))
    }

    @Test("a +990 number whose SIM is in the device completes: code, token with a client assertion, verify")
    func match() async throws {
        try await withOperator { setup in
            let (query, issued) = try await authorize(setup, "+99012345670")
            #expect(query["state"] == "st_1" && query["code"] != nil)
            let verdict = await verdict(setup, query, number: "+99012345670", issued: issued)
            #expect(verdict?.result == .match)
            // The code was redeemed: bringing it again gives no verdict.
            #expect(await self.verdict(setup, query, number: "+99012345670", issued: issued) == nil)
        }
    }

    @Test("a +990 number whose device holds another SIM is a no-match; Wi-Fi is not cellular")
    func mismatchAndWifi() async throws {
        try await withOperator { setup in
            let (odd, issued) = try await authorize(setup, "+99012345671")
            #expect(await verdict(setup, odd, number: "+99012345671", issued: issued)?.result == .noMatch)
            let (wifi, wifiIssued) = try await authorize(setup, "+99012345670", over: Self.wifi)
            #expect(wifi["error"] == "login_required" && wifi["code"] == nil)
            #expect(await verdict(setup, wifi, number: "+99012345670", issued: wifiIssued)?.result == .notCellular)
        }
    }

    @Test("a code is refused without the flow's PKCE verifier, a valid assertion, or a second time")
    func tokenEndpoint() async throws {
        try await withOperator { setup in
            let (query, _) = try await authorize(setup, "+99012345670")
            let code = try #require(query["code"])
            let endpoint = setup.server.baseURL + "/operator/token"
            // Another flow's nonce means another verifier: PKCE fails, and the code is spent with it.
            let settings = setup.provider.verdicts.settings
            let wrong = CamaraAuthorization.verifier(nonce: CamaraAuthorization.nonce(), key: settings.flowKey)
            let fields = try CamaraClientAssertion.fields(settings, audience: endpoint, now: Date())
            let client = URLSessionHTTPClient()
            func post(_ form: [(String, String)]) async throws -> OutboundResponse {
                try await client.send(CamaraWire.form(form, to: URL(string: endpoint)!))
            }
            let refused = try await post([("grant_type", "authorization_code"), ("code", code),
                                          ("redirect_uri", Self.callback), ("code_verifier", wrong)] + fields)
            #expect(refused.status == 400 && CamaraWire.errorCode(refused) == "invalid_grant")
            // No assertion, or the same assertion again: the client is not authenticated.
            let bare = try await post([("grant_type", "authorization_code"), ("code", code),
                                       ("client_id", "tacit-dev")])
            #expect(bare.status == 401 && CamaraWire.errorCode(bare) == "invalid_client")
            let replayed = try await post([("grant_type", "authorization_code"), ("code", code)] + fields)
            #expect(replayed.status == 401 && CamaraWire.errorCode(replayed) == "invalid_client")
        }
    }

    @Test("a Number Verification token works once: the second verify is 401 UNAUTHENTICATED in CAMARA's shape")
    func singleUseToken() async throws {
        try await withOperator { setup in
            let (query, issued) = try await authorize(setup, "+99012345670")
            let settings = setup.provider.verdicts.settings
            let nonce = try #require(CamaraAuthorization.nonce(in: issued))
            let tokens = CamaraTokenClient(settings: settings, http: URLSessionHTTPClient(), clock: SystemClock())
            let answer = await tokens.redeem(code: try #require(query["code"]),
                                             verifier: CamaraAuthorization.verifier(nonce: nonce, key: settings.flowKey),
                                             at: URL(string: setup.server.baseURL + "/operator/token")!)
            guard case .token(let token, _) = answer else { Issue.record("no token: \(answer)"); return }
            let verify = CamaraVerifyClient(settings: settings, http: URLSessionHTTPClient())
            #expect(await verify.verify(phoneNumber: "+99012345670", token: token) == .verdict(.match))
            let again = try await URLSessionHTTPClient().send(CamaraWire.json(
                [("phoneNumber", .string("+99012345670"))], to: URL(string: settings.apiURL + "/number-verification/v2/verify")!,
                token: token, correlator: "c-2"))
            #expect(again.status == 401)
            let body = CamaraWire.object(again)
            #expect(body?["code"]?.stringValue == "UNAUTHENTICATED" && body?["status"]?.numberValue == 401)
        }
    }
}
