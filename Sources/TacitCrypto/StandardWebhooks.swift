import Foundation

/// Signing and verifying webhooks per the Standard Webhooks specification:
/// `webhook-signature: v1,<base64(HMAC-SHA256(key, id + "." + timestamp + "." + body))>`,
/// where the key is the base64-decoded part of a `whsec_` secret.
public enum StandardWebhooks {
    /// The prefix of a signing secret.
    public static let secretPrefix = "whsec_"
    /// How far a timestamp may be from the receiver's clock, either way.
    public static let tolerance: TimeInterval = 5 * 60

    /// The `v1,<base64>` signature of one delivery.
    ///
    /// - Parameter timestamp: Unix seconds, as sent in `webhook-timestamp`.
    public static func sign(
        secret: String, id: String, timestamp: Int64, body: [UInt8]
    ) throws(WebhookSignatureError) -> String {
        let key = try signingKey(secret)
        return "v1," + Base64.encode(mac(key: key, id: id, timestamp: String(timestamp), body: body))
    }

    /// Checks a delivery's headers against `secret`.
    ///
    /// - Parameters:
    ///   - timestamp: the `webhook-timestamp` header value.
    ///   - signatures: the `webhook-signature` header value: one or more
    ///     space-separated `v1,<base64>` entries (several during key rotation).
    ///   - now: the receiver's clock.
    /// - Throws: ``WebhookSignatureError``.
    public static func verify(
        secret: String, id: String, timestamp: String, signatures: String, body: [UInt8], now: Date
    ) throws(WebhookSignatureError) {
        let key = try signingKey(secret)
        guard let seconds = Int64(timestamp) else { throw .badTimestamp }
        guard abs(now.timeIntervalSince1970 - TimeInterval(seconds)) <= tolerance else {
            throw .timestampOutOfTolerance
        }
        let expected = mac(key: key, id: id, timestamp: timestamp, body: body)
        for entry in signatures.split(separator: " ") {
            guard entry.hasPrefix("v1,"), let candidate = Base64.decode(String(entry.dropFirst(3))) else { continue }
            if ConstantTime.equals(candidate, expected) { return }
        }
        throw .noMatchingSignature
    }

    private static func signingKey(_ secret: String) throws(WebhookSignatureError) -> [UInt8] {
        let encoded = secret.hasPrefix(secretPrefix) ? String(secret.dropFirst(secretPrefix.count)) : secret
        guard let key = Base64.decode(encoded), !key.isEmpty else { throw .badSecret }
        return key
    }

    private static func mac(key: [UInt8], id: String, timestamp: String, body: [UInt8]) -> [UInt8] {
        HMAC.sha256(key: key, message: Array("\(id).\(timestamp).".utf8) + body)
    }
}
