import Foundation
import TacitCrypto
import TacitHTTP

/// The Number Verification authorization request the device is sent to (OIDC Core
/// §3.1.2.1; CAMARA ICM: network-based authentication, so `prompt=none`), and the PKCE
/// pair (RFC 7636, S256) that binds the code it yields to this one flow.
///
/// The URL carries a random `nonce`. The PKCE verifier is derived from it under a key
/// only Tacit holds, so nothing needs storing: at the callback the nonce is read back from
/// the URL Tacit sealed into the check token, never from the query. A code obtained in
/// another flow was bound to that flow's challenge and fails at the token endpoint.
///
/// `redirect_uri` and `state` are not written here: Tacit's silent flow appends them when
/// the device opens its check URL, the redirect URI being the callback fixed at begin and
/// `state` the check's sealed token.
enum CamaraAuthorization {
    static let scope = "openid \(CamaraSettings.purpose) number-verification:verify"

    static func url(
        endpoint: String, clientId: String, phoneNumber: String, nonce: String, challenge: String
    ) -> String {
        QueryString.appending([
            ("response_type", "code"), ("client_id", clientId), ("scope", scope), ("login_hint", "tel:" + phoneNumber),
            ("prompt", "none"), ("nonce", nonce), ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ], to: endpoint)
    }

    static func nonce() -> String { Base64.urlEncode(SecureRandom.bytes(16)) }

    /// 43 characters of base64url: the shortest verifier RFC 7636 allows, from 256 bits.
    static func verifier(nonce: String, key: [UInt8]) -> String {
        Base64.urlEncode(HMAC.sha256(key: key, message: Array("verifier:\(nonce)".utf8)))
    }

    static func challenge(verifier: String) -> String {
        Base64.urlEncode(SHA256.hash(Array(verifier.utf8)))
    }

    /// The nonce in an authorization URL this type wrote; nil in any other.
    static func nonce(in issuedURL: String) -> String? {
        guard let components = URLComponents(string: issuedURL),
              let nonce = components.queryItems?.first(where: { $0.name == "nonce" })?.value,
              nonce.count == 22 else { return nil }
        return nonce
    }
}
