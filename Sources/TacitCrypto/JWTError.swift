/// Why a JWT was refused. The description never contains the token or its claims.
public struct JWTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public let code: String
    /// A sentence for logs and problem details.
    public let description: String

    init(_ code: String, _ description: String) {
        self.code = code
        self.description = description
    }

    /// Not three base64url parts holding JSON objects.
    public static let badFormat = JWTError("bad_format", "The token is not a well-formed JWT.")
    /// The header names an algorithm other than HS256 (including `none`).
    public static let unsupportedAlgorithm = JWTError(
        "unsupported_algorithm", "The token is not signed with HS256.")
    /// The HMAC doesn't match.
    public static let badSignature = JWTError("bad_signature", "The token's signature does not match.")
    /// The `exp` claim is in the past.
    public static let expired = JWTError("expired", "The token has expired.")
    /// The `iat` claim is missing, too old, or too far in the future.
    public static let stale = JWTError("stale", "The token's issue time is missing or outside the accepted window.")
}
