import Foundation
import TacitCrypto
import TacitHTTP

/// Network-based authentication as CAMARA operators run it (docs/operator.md): the OIDC
/// authorization-code flow with PKCE, `private_key_jwt` at the token endpoint, and a
/// discovery document naming both, under the issuer `{base}/operator`.
extension VirtualOperator {
    static let issuerPath = "/operator"
    var issuer: String { baseURL + Self.issuerPath }
    var tokenEndpoint: String { issuer + "/token" }

    /// `GET /operator/.well-known/openid-configuration`.
    func discovery(_ request: HTTPRequest) async -> HTTPResponse {
        CamaraJSON.response([
            "issuer": .string(issuer), "authorization_endpoint": .string(issuer + "/authorize"),
            "token_endpoint": .string(tokenEndpoint),
            // Lists, as RFC 8414 metadata gives them: a client reads what it may use from them.
            "token_endpoint_auth_methods_supported": .strings(["private_key_jwt"]),
            "response_types_supported": .strings(["code"]), "code_challenge_methods_supported": .strings(["S256"]),
        ], correlator: nil)
    }

    /// `GET /operator/authorize?response_type=code&client_id&redirect_uri&state&login_hint&code_challenge…`.
    /// A client or redirect URI the operator did not register gets an error page and no
    /// redirect (RFC 6749 §4.1.2.1). Over the cellular path the device is recognised by the
    /// network and sent back with a single-use `code` for the SIM it holds; from any other
    /// network `prompt=none` can't be honoured: `error=login_required`.
    func authorize(_ request: HTTPRequest) async -> HTTPResponse {
        await hop()
        let query = request.query
        guard let clientId = query["client_id"], let client = client(clientId) else {
            return Self.oauthError(400, "invalid_client", "The client is not registered with this operator.")
        }
        guard let redirect = query["redirect_uri"], client.redirectURIs.contains(redirect) else {
            return Self.oauthError(400, "invalid_request", "redirect_uri is not one registered for this client.")
        }
        func back(_ items: [(name: String, value: String)]) -> HTTPResponse {
            .redirect(location: QueryString.appending(items + (query["state"].map { [("state", $0)] } ?? []),
                                                      to: redirect))
        }
        guard query["response_type"] == "code", let challenge = query["code_challenge"], challenge.count == 43,
              query["code_challenge_method"] == "S256" else {
            return back([("error", "invalid_request"),
                         ("error_description", "response_type=code with an S256 code_challenge is required")])
        }
        let hint = query["login_hint"].map { $0.hasPrefix("tel:") ? String($0.dropFirst(4)) : $0 } ?? ""
        guard CamaraRequest.isValidPhone(hint), OperatorScript.owns(hint) else {
            return back([("error", "access_denied"), ("error_description", "not a number of this network")])
        }
        guard configuration.cellularRange.contains(request.remoteAddress) else {
            return back([("error", "login_required"),
                         ("error_description", "the device is not on this operator's mobile network")])
        }
        let now = clock.now()
        let issued = OperatorGrants.Code(clientId: clientId, redirectURI: redirect, challenge: challenge,
                                         simNumber: OperatorScript.simNumber(for: hint),
                                         expires: now.addingTimeInterval(configuration.codeLifetime))
        let code = grants.issue(issued, now: now)
        return back([("code", code)])
    }

    /// `POST /operator/token`, `grant_type=authorization_code`: the client authenticates with
    /// its assertion, the code is redeemed once, for the client, redirect URI and PKCE
    /// verifier it was issued with, and the answer is a single-use Number Verification token.
    func token(_ request: HTTPRequest) async -> HTTPResponse {
        await hop()
        let form = Self.form(request.body)
        let now = clock.now()
        guard form["client_assertion_type"] == OperatorClient.assertionType, let assertion = form["client_assertion"],
              let client = client(form["client_id"]),
              let jti = client.authenticates(assertion, audience: tokenEndpoint, now: now),
              grants.firstUse(ofAssertion: client.clientId + " " + jti,
                              expires: now.addingTimeInterval(TimeInterval(OperatorClient.assertionLifetime)), now: now)
        else { return Self.oauthError(401, "invalid_client", "Client authentication failed.") }
        guard form["grant_type"] == "authorization_code" else {
            return Self.oauthError(400, "unsupported_grant_type", "Only authorization_code is offered.")
        }
        guard let id = form["code"], let code = grants.redeem(id, now: now), code.clientId == client.clientId,
              code.redirectURI == form["redirect_uri"], let verifier = form["code_verifier"],
              ConstantTime.equals(Base64.urlEncode(SHA256.hash(Array(verifier.utf8))), code.challenge) else {
            return Self.oauthError(400, "invalid_grant", "The code is unknown, spent, expired or not this flow's.")
        }
        let token = grants.issue(AccessToken(simNumber: code.simNumber, network: true,
                                             expires: now.addingTimeInterval(configuration.tokenLifetime)), now: now)
        return CamaraJSON.response([
            "access_token": .string(token), "token_type": .string("Bearer"),
            "expires_in": .int(Int(configuration.tokenLifetime)),
        ], correlator: nil)
    }

    static func oauthError(_ status: Int, _ error: String, _ description: String) -> HTTPResponse {
        CamaraJSON.response(status: status, ["error": .string(error), "error_description": .string(description)],
                            correlator: nil)
    }

    /// An `application/x-www-form-urlencoded` body; a repeated field keeps its first value.
    static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String? {
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decoded(parts[0]), let value = decoded(parts.count > 1 ? parts[1] : "") else { continue }
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }
}
