import Foundation
import TacitCrypto

/// What Tacit needs to reach one CAMARA operator or aggregator (docs/providers.md): the OIDC
/// issuer its endpoints are discovered from, the client id it registered, the key its
/// client assertions are signed with, and the base URL of its network APIs.
public struct CamaraSettings: Sendable {
    public static let issuerSetting = "TACIT_CAMARA_ISSUER"
    public static let clientIdSetting = "TACIT_CAMARA_CLIENT_ID"
    public static let privateKeyFileSetting = "TACIT_CAMARA_PRIVATE_KEY_FILE"
    public static let apiURLSetting = "TACIT_CAMARA_API_URL"
    /// Optional: the `kid` the operator knows the key by, when it holds several.
    public static let keyIdSetting = "TACIT_CAMARA_KEY_ID"
    /// Optional: `1` sends Number Verification the number's SHA-256 instead of the number.
    public static let hashedSetting = "TACIT_CAMARA_VERIFY_HASHED"

    /// The purpose every CAMARA scope is asked for: Tacit verifies numbers against fraud.
    static let purpose = "dpv:FraudPreventionAndDetection"

    /// Without a trailing slash.
    public var issuer: String
    public var clientId: String
    public var signingKey: CamaraSigningKey
    public var keyId: String?
    /// Without a trailing slash: `{apiRoot}`, before `/number-verification/v2`.
    public var apiURL: String
    /// Where the operator sends the device back: Tacit's one silent callback, under
    /// `TACIT_PUBLIC_URL`, which is the redirect URI registered with the operator.
    public var redirectURI: String
    public var verifyHashed: Bool
    /// The key PKCE verifiers are derived under: from the signing key, so every instance
    /// behind one public URL derives the same verifier for a flow another one began.
    let flowKey: [UInt8]

    public init(issuer: String, clientId: String, signingKey: CamaraSigningKey, apiURL: String, publicURL: String,
                keyId: String? = nil, verifyHashed: Bool = false) {
        self.issuer = Self.trimmed(issuer)
        self.clientId = clientId
        self.signingKey = signingKey
        self.keyId = keyId
        self.apiURL = Self.trimmed(apiURL)
        // The path of the server's silent callback (`CheckURLIssuer.callbackPath`).
        self.redirectURI = Self.trimmed(publicURL) + "/v1/silent/callback"
        self.verifyHashed = verifyHashed
        self.flowKey = HMAC.sha256(key: signingKey.fingerprint, message: Array("tacit:camara:pkce".utf8))
    }

    static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
