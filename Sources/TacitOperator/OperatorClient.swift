import Foundation
import TacitCrypto

/// An API consumer registered with the operator's authorization server, as a CAMARA
/// operator registers one when it onboards it: its `client_id`, the public half of the key
/// its `private_key_jwt` client assertions are signed with (RS256), and the redirect URIs
/// its authorization codes may be sent to, compared as whole strings.
public struct OperatorClient: Sendable {
    public var clientId: String
    public var publicKey: RSAPublicKey
    public var redirectURIs: [String]

    public init(clientId: String, publicKey: RSAPublicKey, redirectURIs: [String]) {
        self.clientId = clientId
        self.publicKey = publicKey
        self.redirectURIs = redirectURIs
    }

    /// CAMARA's limit on a client assertion's life (`exp` − `iat`).
    static let assertionLifetime: Int64 = 300
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// The assertion's `jti` when it authenticates this client at `audience` (RFC 7523 §3:
    /// `iss` and `sub` the client id, `aud` the endpoint, a `jti`, at most 300 seconds
    /// between `iat` and `exp`, signed with the registered key); nil otherwise.
    func authenticates(_ assertion: String, audience: String, now: Date) -> String? {
        guard let claims = try? JWT.verify(token: assertion, publicKey: publicKey, now: now),
              claims["iss"]?.stringValue == clientId, claims["sub"]?.stringValue == clientId,
              claims["aud"]?.stringValue == audience, let jti = claims["jti"]?.stringValue, !jti.isEmpty,
              let issued = claims["iat"]?.intValue, let expires = claims["exp"]?.intValue,
              expires - issued <= Self.assertionLifetime else { return nil }
        return jti
    }
}
