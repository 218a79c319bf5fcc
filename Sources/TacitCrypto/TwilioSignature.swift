/// Twilio's `X-Twilio-Signature` for webhook requests: base64 HMAC-SHA1 under
/// the account's auth token, over the full URL followed by every POST parameter
/// name and value, sorted by name.
public enum TwilioSignature {
    /// The signature Twilio would send for a request to `url` with form `parameters`.
    public static func compute(authToken: String, url: String, parameters: [(name: String, value: String)]) -> String {
        let message = signedText(url: url, parameters: parameters)
        return Base64.encode(HMAC.sha1(key: Array(authToken.utf8), message: Array(message.utf8)))
    }

    /// Exactly what the signature covers: the URL, then the decoded parameters sorted.
    /// Two requests with the same text carry the same signature however their bodies were
    /// encoded or ordered, so a replay check keys on this text, not on the raw body.
    public static func signedText(url: String, parameters: [(name: String, value: String)]) -> String {
        let sorted = parameters.sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        return url + sorted.map { $0.name + $0.value }.joined()
    }

    /// Checks a received `X-Twilio-Signature` header in constant time.
    public static func isValid(
        _ signature: String, authToken: String, url: String, parameters: [(name: String, value: String)]
    ) -> Bool {
        let expected = compute(authToken: authToken, url: url, parameters: parameters)
        return ConstantTime.equals(signature, expected)
    }
}
