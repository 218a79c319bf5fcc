/// Random, unguessable identifiers and secrets.
public enum Token {
    /// A URL-safe random token: `prefix` followed by base64url (no padding) of
    /// `bytes` random bytes, e.g. `ct_…` for client tokens or `tk_…` for API keys.
    ///
    /// The prefix says what a leaked token is at a glance (and lets secret
    /// scanners find it); the default 32 bytes give 256 bits of entropy.
    public static func generate(prefix: String, bytes: Int = 32) -> String {
        precondition(bytes >= 16, "Token.generate: fewer than 16 random bytes is guessable")
        return prefix + Base64.urlEncode(SecureRandom.bytes(bytes))
    }

    /// A Standard Webhooks signing secret: `whsec_` followed by standard base64
    /// of `bytes` random bytes (the format requires at least 24).
    public static func webhookSecret(bytes: Int = 32) -> String {
        precondition(bytes >= 24, "Token.webhookSecret: Standard Webhooks needs at least 24 bytes")
        return StandardWebhooks.secretPrefix + Base64.encode(SecureRandom.bytes(bytes))
    }
}
