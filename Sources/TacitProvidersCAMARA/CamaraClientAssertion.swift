import Foundation
import TacitCrypto

/// The `private_key_jwt` client authentication (RFC 7523 §2.2, OIDC Core §9) CAMARA's
/// security profile requires at every token and `bc-authorize` call: a JWT whose `iss`
/// and `sub` are the client id and whose `aud` is the endpoint it is sent to, with a
/// fresh `jti`, living at most the profile's 300 seconds. A new one per request.
enum CamaraClientAssertion {
    static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    static let lifetime: Int64 = 120

    static func claims(clientId: String, audience: String, now: Date, jti: String) -> JWT.Claims {
        let issued = Int64(now.timeIntervalSince1970)
        return ["iss": .string(clientId), "sub": .string(clientId), "aud": .string(audience), "jti": .string(jti),
                "iat": .int(issued), "exp": .int(issued + lifetime)]
    }

    static func header(_ settings: CamaraSettings) -> JWT.Claims {
        var header: JWT.Claims = ["alg": .string(settings.signingKey.algorithm), "typ": "JWT"]
        if let keyId = settings.keyId { header["kid"] = .string(keyId) }
        return header
    }

    /// The compact JWT for `audience`.
    static func token(_ settings: CamaraSettings, audience: String, now: Date,
                      jti: String = Token.generate(prefix: "", bytes: 16)) throws(CryptoError) -> String {
        let input = part(header(settings)) + "."
            + part(claims(clientId: settings.clientId, audience: audience, now: now, jti: jti))
        return input + "." + Base64.urlEncode(try settings.signingKey.sign(Array(input.utf8)))
    }

    /// The form fields that carry it, beside the grant's own.
    static func fields(
        _ settings: CamaraSettings, audience: String, now: Date
    ) throws(CryptoError) -> [(String, String)] {
        [("client_id", settings.clientId), ("client_assertion_type", type),
         ("client_assertion", try token(settings, audience: audience, now: now))]
    }

    private static func part(_ object: JWT.Claims) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A dictionary of JWTValue is plain JSON: encoding it can't fail.
        return Base64.urlEncode(Array((try? encoder.encode(object)) ?? Data("{}".utf8)))
    }
}
