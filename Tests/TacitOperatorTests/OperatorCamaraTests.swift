import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitKit
import TacitOperator
import TacitTesting

/// The CAMARA-shaped APIs over real HTTP, the operator on its own loopback port.
@Suite("CAMARA Number Verification and SIM Swap on the virtual operator")
struct OperatorCamaraTests {
    static let cellular = SocketCellularTransport(sourceAddress: "127.0.0.2")
    static let wifi = SocketCellularTransport(sourceAddress: "127.0.0.1")

    static let redirect = "http://127.0.0.1/cb"

    func withOperator(_ body: (OperatorServer) async throws -> Void) async throws {
        let pair = try await OpenSSLKeys.shared()
        var configuration = OperatorConfiguration()
        configuration.clients = [OperatorClient(clientId: "test-client", publicKey: try RSAPublicKey(pem: pair.publicPEM),
                                                redirectURIs: [Self.redirect])]
        let server = OperatorServer(network: VirtualOperator(configuration: configuration, clock: ManualClock()))
        try server.start()
        do { try await body(server) } catch { await server.shutdown(); throw error }
        await server.shutdown()
    }

    func send(_ server: OperatorServer, _ method: String, _ path: String, token: String? = "op_dev_key", body: String? = nil,
              correlator: String? = nil, over transport: SocketCellularTransport = Self.wifi) async throws -> (Int, [String: Any], CellularResponse) {
        var headers = ["Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if let correlator { headers["x-correlator"] = correlator }
        let response = try await transport.send(CellularRequest(method: method, url: URL(string: server.baseURL + path)!,
                                                                headers: headers, body: body.map { Data($0.utf8) }))
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:], response)
    }

    /// The authorize redirect's query for `number`, fetched over `transport`, with the flow's PKCE verifier.
    func authorize(_ server: OperatorServer, _ number: String, over transport: SocketCellularTransport = Self.cellular,
                   client: String = "test-client", redirect: String = Self.redirect) async throws -> (Int, [String: String], String) {
        let verifier = Base64.urlEncode(SecureRandom.bytes(32))
        let challenge = Base64.urlEncode(SHA256.hash(Array(verifier.utf8)))
        let encoded = redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let path = "/operator/authorize?response_type=code&client_id=\(client)&redirect_uri=\(encoded)&state=s1"
            + "&login_hint=tel:%2B\(number.dropFirst())&prompt=none&code_challenge=\(challenge)&code_challenge_method=S256"
        let (status, _, response) = try await send(server, "GET", path, token: nil, over: transport)
        let query = URLComponents(string: response.header("location") ?? "")?.queryItems?
            .reduce(into: [String: String]()) { $0[$1.name] = $1.value } ?? [:]
        return (status, query, verifier)
    }

    /// The token endpoint's answer for `code`, with a client assertion signed by the registered key.
    func redeem(_ server: OperatorServer, code: String, verifier: String, jti: String = UUID().uuidString,
                audience: String? = nil) async throws -> (Int, [String: Any]) {
        let pair = try await OpenSSLKeys.shared()
        let now = Int64(Date().timeIntervalSince1970)
        let assertion = try JWT.sign(claims: ["iss": "test-client", "sub": "test-client",
                                              "aud": .string(audience ?? server.baseURL + "/operator/token"),
                                              "jti": .string(jti), "iat": .int(now), "exp": .int(now + 60)],
                                     privateKey: try RSAPrivateKey(pem: pair.privatePEM))
        let form = ["grant_type": "authorization_code", "code": code, "redirect_uri": Self.redirect, "code_verifier": verifier,
                    "client_id": "test-client", "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                    "client_assertion": assertion]
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }.joined(separator: "&")
        let response = try await Self.wifi.send(CellularRequest(method: "POST", url: URL(string: server.baseURL + "/operator/token")!,
                                                                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                                body: Data(form.utf8)))
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    /// A single-use Number Verification token, through the code flow from the cellular path.
    func networkToken(_ server: OperatorServer, _ number: String) async throws -> String {
        let (status, query, verifier) = try await authorize(server, number)
        #expect(status == 302)
        let (redeemed, body) = try await redeem(server, code: try #require(query["code"]), verifier: verifier)
        #expect(redeemed == 200)
        return try #require(body["access_token"] as? String)
    }

    @Test("SIM swap check: swapped for …96 within maxAge, not for others, x-correlator echoed")
    func simSwapCheck() async throws {
        try await withOperator { server in
            let (status, body, response) = try await send(server, "POST", "/camara/sim-swap/v0/check",
                                                          body: #"{"phoneNumber":"+99012345696","maxAge":24}"#, correlator: "abc-123")
            #expect(status == 200 && body["swapped"] as? Bool == true)
            #expect(response.header("x-correlator") == "abc-123")
            #expect(try await send(server, "POST", "/camara/sim-swap/v0/check", body: #"{"phoneNumber":"+99012345696","maxAge":1}"#).1["swapped"] as? Bool == false)
            #expect(try await send(server, "POST", "/camara/sim-swap/v0/check", body: #"{"phoneNumber":"+99012345670"}"#).1["swapped"] as? Bool == false)
        }
    }

    @Test("SIM swap retrieve-date: the change 2 hours ago for …96, null with monitoredPeriod otherwise")
    func retrieveDate() async throws {
        try await withOperator { server in
            let swapped = try await send(server, "POST", "/camara/sim-swap/v0/retrieve-date", body: #"{"phoneNumber":"+99012345696"}"#).1
            #expect(swapped["latestSimChange"] as? String == "2026-11-29T22:53:20.000Z")
            let clean = try await send(server, "POST", "/camara/sim-swap/v0/retrieve-date", body: #"{"phoneNumber":"+99012345670"}"#).1
            #expect(clean["latestSimChange"] is NSNull)
            #expect(clean["monitoredPeriod"] as? Int == 120)
        }
    }

    @Test("bad input gets CAMARA's error body and codes", arguments: [
        (#"{"phoneNumber":"+99012345670","maxAge":0}"#, "op_dev_key", 400, "OUT_OF_RANGE"),
        (#"{"phoneNumber":"+99012345670","maxAge":2401}"#, "op_dev_key", 400, "OUT_OF_RANGE"),
        (#"{"phoneNumber":"12345","maxAge":24}"#, "op_dev_key", 400, "INVALID_ARGUMENT"),
        (#"{"phoneNumber":"+99012345670","maxAge":"24"}"#, "op_dev_key", 400, "INVALID_ARGUMENT"),
        (#"not json"#, "op_dev_key", 400, "INVALID_ARGUMENT"),
        (#"{"phoneNumber":"+99012345670"}"#, "wrong", 401, "UNAUTHENTICATED"),
        (#"{"phoneNumber":"+14155550100"}"#, "op_dev_key", 404, "IDENTIFIER_NOT_FOUND"),
        (#"{"phoneNumber":"+99012345698"}"#, "op_dev_key", 422, "SERVICE_NOT_APPLICABLE"),
        (#"{"maxAge":24}"#, "op_dev_key", 422, "MISSING_IDENTIFIER"),
    ])
    func badInput(body: String, token: String, status: Int, code: String) async throws {
        try await withOperator { server in
            let (answered, json, response) = try await send(server, "POST", "/camara/sim-swap/v0/check", token: token, body: body, correlator: "c1")
            #expect(answered == status)
            #expect(json["status"] as? Int == status && json["code"] as? String == code && json["message"] is String)
            #expect(response.header("x-correlator") == "c1")
        }
    }

    @Test("Number Verification with a token from the cellular path: true for the SIM's number, false for another")
    func numberVerification() async throws {
        try await withOperator { server in
            #expect(try await send(server, "POST", "/camara/number-verification/v0/verify", token: try await networkToken(server, "+99012345670"),
                                   body: #"{"phoneNumber":"+99012345670"}"#).1["devicePhoneNumberVerified"] as? Bool == true)
            let hashed = Hex.encode(SHA256.hash("+99012345670"))
            #expect(try await send(server, "POST", "/camara/number-verification/v2/verify", token: try await networkToken(server, "+99012345670"),
                                   body: #"{"hashedPhoneNumber":"\#(hashed)"}"#).1["devicePhoneNumberVerified"] as? Bool == true)
            #expect(try await send(server, "GET", "/camara/number-verification/v0/device-phone-number",
                                   token: try await networkToken(server, "+99012345670")).1["devicePhoneNumber"] as? String == "+99012345670")
            let odd = try await networkToken(server, "+99012345671")
            #expect(try await send(server, "POST", "/camara/number-verification/v0/verify", token: odd,
                                   body: #"{"phoneNumber":"+99012345671"}"#).1["devicePhoneNumberVerified"] as? Bool == false)
        }
    }

    @Test("Number Verification refuses Wi-Fi tokens, API keys, both or neither identifier")
    func numberVerificationErrors() async throws {
        try await withOperator { server in
            // From Wi-Fi, prompt=none can't be honoured: no code, so no token at all.
            let (status, wifi, _) = try await authorize(server, "+99012345670", over: Self.wifi)
            #expect(status == 302 && wifi["error"] == "login_required" && wifi["code"] == nil && wifi["state"] == "s1")
            // Each call below spends a token of its own: a token answers one call.
            let path = "/camara/number-verification/v0/verify"
            let one = #"{"phoneNumber":"+99012345670"}"#
            #expect(try await send(server, "POST", path, body: one).1["code"] as? String == "PERMISSION_DENIED")
            #expect(try await send(server, "POST", path, token: nil, body: one).0 == 401)
            let both = #"{"phoneNumber":"+99012345670","hashedPhoneNumber":"\#(String(repeating: "a", count: 64))"}"#
            #expect(try await send(server, "POST", path, token: try await networkToken(server, "+99012345670"), body: both).1["code"] as? String == "INVALID_ARGUMENT")
            #expect(try await send(server, "POST", path, token: try await networkToken(server, "+99012345670"), body: "{}").1["code"] as? String == "INVALID_ARGUMENT")
            #expect(try await send(server, "POST", "/camara/sim-swap/v0/check", token: try await networkToken(server, "+99012345670"), body: one).1["code"] as? String == "UNNECESSARY_IDENTIFIER")
            #expect(try await send(server, "POST", "/camara/sim-swap/v0/check", token: try await networkToken(server, "+99012345670"), body: "{}").1["swapped"] as? Bool == false)
        }
    }

    @Test("the gateway answers a Wi-Fi fetch with a signed not_cellular verdict, and a second fetch as a replay")
    func gateway() async throws {
        try await Self.withGatewayURL { url in
            var verdicts: [String] = []
            for transport in [Self.wifi, Self.cellular] {
                let response = try await transport.send(CellularRequest(url: URL(string: url + "?redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&state=s")!))
                let query = URLComponents(string: response.header("location") ?? "")?.queryItems ?? []
                verdicts.append(query.first { $0.name == "result" }?.value ?? "")
            }
            #expect(verdicts == ["not_cellular", "replayed"])
        }
    }

    @Test("the gateway refuses a redirect_uri that is not an absolute http(s) URL, and keeps the caller's own query")
    func gatewayRedirectURI() async throws {
        try await Self.withGatewayURL(callback: "http://127.0.0.1/cb?app=1#top") { url in
            for bad in ["", "%2Fcb", "ftp%3A%2F%2Fh%2Fcb", "http%3A%2F%2F", "javascript%3Aalert(1)"] {
                let response = try await Self.cellular.send(CellularRequest(url: URL(string: url + "?redirect_uri=\(bad)&state=s")!))
                #expect(response.status == 400, "\(bad)")
                #expect(String(decoding: response.body, as: UTF8.self).contains("invalid-redirect-uri"))
            }
            let response = try await Self.cellular.send(CellularRequest(url: URL(string: url + "?redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb%3Fapp%3D1%23top&state=a%2Bb")!))
            let location = try #require(response.header("location"))
            #expect(location.hasPrefix("http://127.0.0.1/cb?app=1&result=match&session="))
            #expect(location.contains("&state=a%2Bb&"))
            #expect(location.hasSuffix("#top"))
        }
    }

    /// Runs `body` with the gateway URL of a fresh check for `+99012345670` on an operator
    /// of its own, registered with `callback` as the only place its verdict may go.
    static func withGatewayURL(callback: String? = "http://127.0.0.1/cb", _ body: (String) async throws -> Void) async throws {
        let clock = ManualClock()
        let network = VirtualOperator(clock: clock)
        let server = OperatorServer(network: network)
        try server.start()
        let request = SilentCheckRequest(verificationId: "v", step: 0, phoneNumber: "+99012345670",
                                         expiresAt: clock.now().addingTimeInterval(60), callbackURL: callback)
        guard case .issued(let url, _) = await network.begin(request) else {
            Issue.record("not issued")
            await server.shutdown()
            return
        }
        do {
            try await body(url)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test("a Number Verification token works once: the second call is 401 UNAUTHENTICATED in CAMARA's shape")
    func singleUseToken() async throws {
        try await withOperator { server in
            let token = try await networkToken(server, "+99012345670")
            let one = #"{"phoneNumber":"+99012345670"}"#
            let first = try await send(server, "POST", "/camara/number-verification/v0/verify", token: token, body: one)
            #expect(first.0 == 200 && first.1["devicePhoneNumberVerified"] as? Bool == true)
            let second = try await send(server, "POST", "/camara/number-verification/v0/verify", token: token, body: one,
                                        correlator: "c2")
            #expect(second.0 == 401 && second.1["code"] as? String == "UNAUTHENTICATED" && second.1["status"] as? Int == 401)
            #expect(second.2.header("x-correlator") == "c2")
        }
    }

    @Test("a call refused for its input leaves the token unspent: the device's next, good call is answered")
    func refusedCallKeepsToken() async throws {
        try await withOperator { server in
            let token = try await networkToken(server, "+99012345670")
            let hashed = Hex.encode(SHA256.hash("+99012345670"))
            let both = #"{"phoneNumber":"+99012345670","hashedPhoneNumber":"\#(hashed)"}"#
            let refused = try await send(server, "POST", "/camara/number-verification/v0/verify", token: token, body: both)
            #expect(refused.0 == 400)
            let one = #"{"phoneNumber":"+99012345670"}"#
            let answered = try await send(server, "POST", "/camara/number-verification/v0/verify", token: token, body: one)
            #expect(answered.0 == 200 && answered.1["devicePhoneNumberVerified"] as? Bool == true)
            let again = try await send(server, "POST", "/camara/number-verification/v0/verify", token: token, body: one)
            #expect(again.0 == 401, "answered once, the token is spent")
        }
    }

    @Test("authorize answers with a code only: no token in one hop, and codes are single-use and bound to PKCE")
    func codeFlow() async throws {
        try await withOperator { server in
            let (status, query, verifier) = try await authorize(server, "+99012345670")
            #expect(status == 302 && query["access_token"] == nil && query["state"] == "s1")
            let code = try #require(query["code"])
            // Another verifier for certain: a random one may already begin with any one letter.
            let another = (verifier.first == "x" ? "y" : "x") + verifier.dropFirst()
            #expect(try await redeem(server, code: code, verifier: another).0 == 400, "another verifier")
            #expect(try await redeem(server, code: code, verifier: verifier).1["error"] as? String == "invalid_grant",
                    "a code is spent by its first redemption, even a refused one")
            let (_, fresh, freshVerifier) = try await authorize(server, "+99012345670")
            let jti = UUID().uuidString
            #expect(try await redeem(server, code: fresh["code"]!, verifier: freshVerifier, jti: jti,
                                     audience: "http://elsewhere/token").0 == 401, "an assertion for another audience")
            #expect(try await redeem(server, code: fresh["code"]!, verifier: freshVerifier, jti: jti).0 == 200)
        }
    }

    @Test("the discovery document's supported methods are JSON arrays, as RFC 8414 metadata lists them")
    func discoveryLists() async throws {
        try await withOperator { server in
            let (status, body, _) = try await send(server, "GET", "/operator/.well-known/openid-configuration",
                                                   token: nil)
            #expect(status == 200 && body["issuer"] as? String == server.baseURL + "/operator")
            #expect(body["token_endpoint"] as? String == server.baseURL + "/operator/token")
            #expect(body["token_endpoint_auth_methods_supported"] as? [String] == ["private_key_jwt"])
            #expect(body["response_types_supported"] as? [String] == ["code"])
            #expect(body["code_challenge_methods_supported"] as? [String] == ["S256"])
        }
    }

    @Test("authorize sends nothing to an unregistered client or redirect URI", arguments: [
        ("test-client", "http://127.0.0.1:9/steal"), ("someone-else", "http://127.0.0.1/cb"),
    ])
    func unregistered(client: String, redirect: String) async throws {
        try await withOperator { server in
            let (status, query, _) = try await authorize(server, "+99012345670", client: client, redirect: redirect)
            #expect(status == 400 && query.isEmpty)
        }
    }
}
