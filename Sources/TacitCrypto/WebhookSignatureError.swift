/// Why a webhook signature couldn't be made or was refused.
/// The description never contains the secret, the body or a signature.
public struct WebhookSignatureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public let code: String
    /// A sentence for logs.
    public let description: String

    private init(_ code: String, _ description: String) {
        self.code = code
        self.description = description
    }

    /// The secret is not `whsec_` followed by standard base64.
    public static let badSecret = WebhookSignatureError("bad_secret", "The webhook secret is not valid base64.")
    /// The `webhook-timestamp` header is not a whole number of seconds.
    public static let badTimestamp = WebhookSignatureError("bad_timestamp", "The webhook timestamp is not a number.")
    /// The timestamp is more than five minutes from the receiver's clock.
    public static let timestampOutOfTolerance = WebhookSignatureError(
        "timestamp_out_of_tolerance", "The webhook timestamp is too far from the current time.")
    /// None of the signatures matches.
    public static let noMatchingSignature = WebhookSignatureError(
        "no_matching_signature", "No webhook signature matches.")
}
