import Foundation

/// JSON Web Tokens (RFC 7519) signed with HMAC-SHA256 (HS256), as Vonage signs
/// its callbacks, or with RSA (RS256, in `JWT+RS256.swift`), as Vonage's applications
/// sign their requests. Each verifier takes only its own algorithm: `none` above all is refused.
public enum JWT {
    /// A token's claims.
    public typealias Claims = [String: JWTValue]

    /// How far a token's `iat` may lie in the future, for clock skew between hosts.
    public static let allowedClockSkew: TimeInterval = 60

    /// Signs `claims` into a compact JWT. Keys are written sorted, so the same
    /// claims always give the same token.
    public static func sign(claims: Claims, secret: [UInt8]) -> String {
        let header: Claims = ["alg": "HS256", "typ": "JWT"]
        let signingInput = encodePart(header) + "." + encodePart(claims)
        let signature = HMAC.sha256(key: secret, message: Array(signingInput.utf8))
        return signingInput + "." + Base64.urlEncode(signature)
    }

    /// Checks a token and returns its claims.
    ///
    /// - Parameters:
    ///   - now: the current time, against which `exp` and `iat` are judged.
    ///   - maxAge: when set, `iat` is required and may be at most this old.
    /// - Throws: ``JWTError``.
    public static func verify(
        token: String, secret: [UInt8], now: Date, maxAge: TimeInterval? = nil
    ) throws(JWTError) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Base64.urlDecode(String(parts[2])) else { throw .badFormat }
        let header = try decodePart(parts[0])
        guard header["alg"] == "HS256" else { throw .unsupportedAlgorithm }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard ConstantTime.equals(HMAC.sha256(key: secret, message: signingInput), signature) else {
            throw .badSignature
        }
        let claims = try decodePart(parts[1])
        try checkTimes(claims, now: now.timeIntervalSince1970, maxAge: maxAge)
        return claims
    }

    static func checkTimes(_ claims: Claims, now: TimeInterval, maxAge: TimeInterval?) throws(JWTError) {
        if let expiry = claims["exp"] {
            guard let seconds = expiry.intValue else { throw .badFormat }
            guard now < TimeInterval(seconds) else { throw .expired }
        }
        guard let maxAge else { return }
        guard let issued = claims["iat"]?.intValue else { throw .stale }
        let age = now - TimeInterval(issued)
        guard age <= maxAge, age >= -allowedClockSkew else { throw .stale }
    }

    static func encodePart(_ object: Claims) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a dictionary of JWTValue can't fail: every case is plain JSON.
        let data = (try? encoder.encode(object)) ?? Data("{}".utf8)
        return Base64.urlEncode(Array(data))
    }

    static func decodePart(_ part: Substring) throws(JWTError) -> Claims {
        guard let bytes = Base64.urlDecode(String(part)),
              let object = try? JSONDecoder().decode(Claims.self, from: Data(bytes))
        else { throw .badFormat }
        return object
    }
}
