import Foundation
import TacitCore

/// The operator's authorization server, as Tacit calls it server to server: the token
/// endpoint (an authorization code, or a CIBA request) and `bc-authorize`. Every call
/// carries a fresh client assertion for the endpoint it goes to.
struct CamaraTokenClient: Sendable {
    let settings: CamaraSettings
    let http: any OutboundHTTPClient
    let clock: any TacitClock

    static let cibaGrant = "urn:openid:params:grant-type:ciba"

    /// Redeems a Number Verification authorization code (RFC 6749 §4.1.3, PKCE RFC 7636 §4.5).
    func redeem(code: String, verifier: String, at endpoint: URL) async -> CamaraTokenAnswer {
        await token([("grant_type", "authorization_code"), ("code", code), ("redirect_uri", settings.redirectURI),
                     ("code_verifier", verifier)], at: endpoint)
    }

    /// One CIBA poll for `authRequestId` (CIBA §10.1).
    func poll(_ authRequestId: String, at endpoint: URL) async -> CamaraTokenAnswer {
        await token([("grant_type", Self.cibaGrant), ("auth_req_id", authRequestId)], at: endpoint)
    }

    /// `bc-authorize` for `phoneNumber` (CIBA §7.1; CAMARA: `login_hint=tel:+…`, the only hint).
    func backchannel(phoneNumber: String, scope: String, at endpoint: URL) async -> CamaraBackchannel? {
        guard let request = try? CamaraWire.form([("scope", scope), ("login_hint", "tel:" + phoneNumber)]
                                                 + CamaraClientAssertion.fields(settings,
                                                                                audience: endpoint.absoluteString,
                                                                                now: clock.now()),
                                                 to: endpoint),
              let response = try? await http.send(request), response.status == 200,
              let body = CamaraWire.object(response) else { return nil }
        return CamaraBackchannel(body)
    }

    private func token(_ grant: [(String, String)], at endpoint: URL) async -> CamaraTokenAnswer {
        guard let fields = try? CamaraClientAssertion.fields(settings, audience: endpoint.absoluteString,
                                                             now: clock.now())
        else { return .unavailable }
        return CamaraTokenAnswer(try? await http.send(CamaraWire.form(grant + fields, to: endpoint)))
    }
}

/// A `bc-authorize` answer: the request to poll for, how long it lives and how often to ask.
struct CamaraBackchannel: Sendable, Equatable {
    var authRequestId: String
    var expiresIn: Int
    /// CIBA §7.3: 5 seconds when the server names none.
    var interval: Int

    init?(_ body: [String: JSONValue]) {
        guard let id = body["auth_req_id"]?.stringValue, !id.isEmpty else { return nil }
        authRequestId = id
        expiresIn = body["expires_in"]?.numberValue.map { Int($0) } ?? 120
        interval = body["interval"]?.numberValue.map { max(0, Int($0)) } ?? 5
    }
}
