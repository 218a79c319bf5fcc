import Foundation
import TacitCore

/// Builds the Messages API v1 request for a WhatsApp code, as Vonage's SDK (vonage-messages
/// `WhatsappTemplate`, `WhatsappText`) sends it: `POST /v1/messages`, JSON, Bearer with the
/// application's JWT. With a template, `message_type: template` names it and passes the code
/// as its one parameter, in the verification's language with the `deterministic` policy
/// (WhatsApp sends the template in exactly that language or not at all); without one, text.
enum VonageMessagesRequest {
    struct Template: Encodable, Equatable {
        var name: String
        var parameters: [String]
    }

    struct WhatsAppSettings: Encodable, Equatable {
        var policy: String
        var locale: String
    }

    struct Body: Encodable, Equatable {
        var channel = "whatsapp"
        var message_type: String
        var to: String
        var from: String
        var text: String?
        var template: Template?
        var whatsapp: WhatsAppSettings?
        var client_ref: String
        var webhook_url: String?
    }

    static func body(_ message: OutboundMessage, credentials: VonageApplicationCredentials) -> Body? {
        guard let from = credentials.whatsappFrom else { return nil }
        let to = VonageApplicationCredentials.digits(message.to)
        let webhook = credentials.publicURL.map { $0 + "/v1/callbacks/vonage" }
        guard let name = credentials.whatsappTemplate else {
            return Body(message_type: "text", to: to, from: from, text: message.body,
                        client_ref: message.callbackReference, webhook_url: webhook)
        }
        return Body(message_type: "template", to: to, from: from,
                    template: Template(name: name, parameters: [message.code]),
                    whatsapp: WhatsAppSettings(policy: "deterministic", locale: locale(message)),
                    client_ref: message.callbackReference, webhook_url: webhook)
    }

    static func make(_ message: OutboundMessage, credentials: VonageApplicationCredentials, authorization: String,
                     timeout: TimeInterval) -> OutboundRequest? {
        guard let url = URL(string: credentials.apiURL + "/v1/messages"),
              let body = body(message, credentials: credentials) else { return nil }
        return VonageJSON.request(url: url, body: body, authorization: authorization, timeout: timeout)
    }

    /// WhatsApp's template language codes: `en_GB` from `en-gb`, the bare language from `en`,
    /// and `pt_BR` for `pt` (WhatsApp has no bare `pt`). The region is kept only when the
    /// locale is in the language the texts were written in.
    static func locale(_ message: OutboundMessage) -> String {
        let parts = message.locale.replacingOccurrences(of: "_", with: "-").split(separator: "-")
        if parts.count >= 2, parts[0].lowercased() == message.language, parts[1].count == 2,
           parts[1].allSatisfy(\.isLetter) {
            return message.language + "_" + parts[1].uppercased()
        }
        return message.language == "pt" ? "pt_BR" : message.language
    }
}

/// The JSON requests of the Messages and Voice APIs: the headers Vonage's SDK sends with them.
enum VonageJSON {
    static func request<Body: Encodable>(
        url: URL, body: Body, authorization: String, timeout: TimeInterval
    ) -> OutboundRequest? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(body) else { return nil }
        return OutboundRequest(method: "POST", url: url, headers: [
            ("Authorization", authorization),
            ("Content-Type", "application/json"),
            ("Accept", "application/json"),
            ("User-Agent", "tacit"),
        ], body: Array(data), timeout: timeout)
    }
}
