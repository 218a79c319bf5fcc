import Foundation
import TacitCrypto
import TacitProviderKit

/// Verifies a Twilio-style callback: `X-Twilio-Signature` is base64 HMAC-SHA1 under the
/// auth token over the full callback URL and the sorted form parameters. Then reads the
/// message or call status; the reference is the URL's `ref` query parameter.
struct TwilioCallback {
    static let failures: Set<String> = ["failed", "undelivered", "busy", "no-answer", "canceled"]
    static let deliveries: Set<String> = ["delivered", "read", "completed", "in-progress"]

    var report: ProviderReport
    var replayKey: String

    /// `url` is the callback URL as Twilio was given it (the public base URL, the path and the query).
    init(signature: String?, url: String, query: [String: String], body: [UInt8],
         authToken: String) throws(CallbackRejection) {
        guard let signature, !signature.isEmpty else { throw .badSignature }
        let parameters = FormBody.pairs(body)
        guard TwilioSignature.isValid(signature, authToken: authToken, url: url, parameters: parameters) else {
            throw .badSignature
        }
        // Keyed on what the signature covers (the URL and the decoded, sorted parameters),
        // so the same callback re-sent reordered, encoded otherwise or with stray `&` is a replay.
        let signed = TwilioSignature.signedText(url: url, parameters: parameters)
        replayKey = "twilio:" + Hex.encode(SHA256.hash(Array(signed.utf8)))
        let fields = Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        guard let status = fields["MessageStatus"] ?? fields["CallStatus"] else { throw .malformed }
        report = ProviderReport(provider: TwilioProvider.name, reference: query["ref"].flatMap(CallbackReference.init),
                                status: status,
                                failures: Self.failures, deliveries: Self.deliveries,
                                messageId: fields["MessageSid"] ?? fields["CallSid"], errorCode: fields["ErrorCode"])
    }

    /// The callback URL Twilio signed: query parameters are rebuilt sorted by name, which is
    /// exact for the status callback URLs Tacit hands out (a single `ref` parameter).
    static func signedURL(base: String, path: String, query: [String: String]) -> String {
        guard !query.isEmpty else { return base + path }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?")
        let pairs = query.sorted { $0.key < $1.key }.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name) + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
        }
        return base + path + "?" + pairs.joined(separator: "&")
    }
}
