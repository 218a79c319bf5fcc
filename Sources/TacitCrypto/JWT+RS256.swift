import Foundation

/// RS256 tokens: RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3), as Vonage's applications
/// authenticate to the Messages and Voice APIs, and as a Vonage-compatible API will check them.
extension JWT {
    /// Signs `claims` with `key`; the header is `{"alg":"RS256","typ":"JWT"}`, as Vonage's SDK writes it.
    ///
    /// - Throws: ``CryptoError`` when OpenSSL can't sign.
    public static func sign(claims: Claims, privateKey key: RSAPrivateKey) throws(CryptoError) -> String {
        let header: Claims = ["alg": "RS256", "typ": "JWT"]
        let signingInput = encodePart(header) + "." + encodePart(claims)
        return signingInput + "." + Base64.urlEncode(try key.sign(Array(signingInput.utf8)))
    }

    /// Checks an RS256 token against `key` and returns its claims. `exp` must be in the
    /// future and `nbf`, when present, not ahead of `now` by more than the allowed skew.
    ///
    /// - Throws: ``JWTError``; a token with any other `alg`, HS256 included, is `unsupportedRS256`.
    public static func verify(token: String, publicKey key: RSAPublicKey, now: Date,
                              maxAge: TimeInterval? = nil) throws(JWTError) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Base64.urlDecode(String(parts[2])) else { throw .badFormat }
        // Never let the header choose: an HS256 token "signed" with the public key as a secret must fail.
        guard try decodePart(parts[0])["alg"] == "RS256" else { throw .unsupportedRS256 }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard key.isValid(signature, for: signingInput) else { throw .badSignature }
        let claims = try decodePart(parts[1])
        try checkTimes(claims, now: now.timeIntervalSince1970, maxAge: maxAge)
        if let notBefore = claims["nbf"] {
            guard let seconds = notBefore.intValue else { throw .badFormat }
            guard TimeInterval(seconds) <= now.timeIntervalSince1970 + allowedClockSkew else { throw .stale }
        }
        return claims
    }
}

extension JWTError {
    /// The header names an algorithm other than RS256 where an RS256 token is expected.
    public static let unsupportedRS256 = JWTError("unsupported_algorithm", "The token is not signed with RS256.")
}
