import Foundation
import TacitCore

/// Builds the API request for one message, as Twilio's own SDK sends it: `POST` to
/// `/2010-04-01/Accounts/{sid}/Messages.json` (SMS, WhatsApp) or `Calls.json` (voice),
/// form-encoded, HTTP Basic with the account SID and auth token.
enum TwilioRequest {
    static func make(_ message: OutboundMessage, settings: TwilioSettings, timeout: TimeInterval) -> OutboundRequest? {
        let resource = message.channel == .voice ? "Calls.json" : "Messages.json"
        guard let url = URL(string: "\(settings.apiURL)/2010-04-01/Accounts/\(settings.accountSid)/\(resource)") else {
            return nil
        }
        guard let fields = fields(message, settings: settings) else { return nil }
        let credentials = Data("\(settings.accountSid):\(settings.authToken)".utf8).base64EncodedString()
        return OutboundRequest(method: "POST", url: url, headers: [
            ("Authorization", "Basic \(credentials)"),
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Accept", "application/json"),
            ("User-Agent", "tacit"),
        ], body: Array(encode(fields).utf8), timeout: timeout)
    }

    /// The form fields, in the order the SDK writes them; nil when the channel can't be sent
    /// with these settings (a call without a `From` number).
    static func fields(_ message: OutboundMessage, settings: TwilioSettings) -> [(String, String)]? {
        var fields: [(String, String)] = []
        switch message.channel {
        case .email:
            // Twilio's messaging carries no email: the router never hands it one.
            return nil
        case .voice:
            guard let from = settings.from else { return nil }
            fields = [("To", message.to), ("From", from),
                      ("Twiml", TwiML.say(message))]
        case .sms, .whatsapp, .silentAuth:
            let whatsapp = message.channel == .whatsapp
            fields = [("To", whatsapp ? "whatsapp:" + message.to : message.to)]
            if let service = settings.messagingServiceSid {
                fields.append(("MessagingServiceSid", service))
            } else if let from = settings.from {
                fields.append(("From", whatsapp ? "whatsapp:" + from : from))
            }
            if whatsapp, let content = settings.whatsappContentSid {
                // An authentication template: WhatsApp writes the text, Tacit gives only the code.
                fields.append(("ContentSid", content))
                fields.append(("ContentVariables", contentVariables(code: message.code)))
            } else {
                fields.append(("Body", message.body))
            }
        }
        if let callback = statusCallback(message, settings: settings) { fields.append(("StatusCallback", callback)) }
        return fields
    }

    /// `{"1": "<code>"}`, as Python's `json.dumps` writes the SDK's `content_variables`. Codes
    /// are letters and digits, which JSON takes as they are.
    static func contentVariables(code: String) -> String {
        #"{"1": ""# + code + #""}"#
    }

    /// `TACIT_PUBLIC_URL/v1/callbacks/twilio?ref=<request_id>:<step>`. Twilio signs this URL
    /// as given, and the callback route rebuilds it from the query it receives, which
    /// leaves `:` and the id's URL-safe characters unescaped: so are they here.
    static func statusCallback(_ message: OutboundMessage, settings: TwilioSettings) -> String? {
        guard let base = settings.publicURL else { return nil }
        return base + "/v1/callbacks/twilio?ref=" + message.callbackReference
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
