import Foundation
import TacitCore

/// Builds the SMS API request for one message, as Vonage's own SDK sends it: `POST` to
/// `/sms/json`, form-encoded, HTTP Basic with the API key and secret (the SDK's placement;
/// the API also takes them as form fields, which would put the secret in every logged body).
enum VonageRequest {
    static func make(_ message: OutboundMessage, settings: VonageSettings, timeout: TimeInterval) -> OutboundRequest? {
        guard let url = URL(string: settings.restURL + "/sms/json") else { return nil }
        let credentials = Data("\(settings.apiKey):\(settings.apiSecret)".utf8).base64EncodedString()
        return OutboundRequest(method: "POST", url: url, headers: [
            ("Authorization", "Basic \(credentials)"),
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Accept", "application/json"),
            ("User-Agent", "tacit"),
        ], body: Array(encode(fields(message, settings: settings)).utf8), timeout: timeout)
    }

    /// The form fields, in the order the SDK's `SmsMessage` writes them.
    static func fields(_ message: OutboundMessage, settings: VonageSettings) -> [(String, String)] {
        let to = message.to.hasPrefix("+") ? String(message.to.dropFirst()) : message.to
        var fields = [("to", to), ("from", settings.from), ("text", message.body),
                      ("client-ref", message.callbackReference)]
        // A text outside GSM 7-bit sent as `text` reaches the phone as question marks.
        if !GSMAlphabet.encodes(message.body) { fields.append(("type", "unicode")) }
        if let callback = callback(settings) { fields.append(("callback", callback)) }
        return fields
    }

    /// `TACIT_PUBLIC_URL/v1/callbacks/vonage`: the receipt names the message by `client-ref`,
    /// so the URL carries no reference of its own.
    static func callback(_ settings: VonageSettings) -> String? {
        settings.publicURL.map { $0 + "/v1/callbacks/vonage" }
    }

    /// `application/x-www-form-urlencoded` as Python's `urlencode` writes it: space as `+`,
    /// everything but letters, digits and `-._~` percent-encoded.
    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz"
                                                     + "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~ ")

    static func escape(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "").replacingOccurrences(of: " ", with: "+")
    }
}
