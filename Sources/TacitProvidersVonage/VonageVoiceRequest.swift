import Foundation
import TacitCore

/// Builds the Voice API request for a code call, as Vonage's SDK (vonage-voice
/// `CreateCallRequest`) sends it: `POST /v1/calls`, JSON, Bearer with the application's JWT,
/// and the call's script inline as an NCCO of one `talk`. The message's voice text already
/// reads the code digit by digit, twice. Call events carry no `client_ref`, so the event URL
/// names the step in its `ref` query parameter, as Twilio's status callback does.
enum VonageVoiceRequest {
    struct Endpoint: Encodable, Equatable {
        var type = "phone"
        var number: String
    }

    struct Talk: Encodable, Equatable {
        var action = "talk"
        var text: String
        var language: String
    }

    struct Body: Encodable, Equatable {
        var to: [Endpoint]
        var from: Endpoint
        var ncco: [Talk]
        var event_url: [String]?
    }

    static func body(_ message: OutboundMessage, credentials: VonageApplicationCredentials) -> Body? {
        guard let from = credentials.voiceFrom else { return nil }
        let events = credentials.publicURL.map { [$0 + "/v1/callbacks/vonage?ref=" + message.callbackReference] }
        return Body(to: [Endpoint(number: VonageApplicationCredentials.digits(message.to))],
                    from: Endpoint(number: from),
                    ncco: [Talk(text: message.body, language: language(message))], event_url: events)
    }

    static func make(_ message: OutboundMessage, credentials: VonageApplicationCredentials, authorization: String,
                     timeout: TimeInterval) -> OutboundRequest? {
        guard let url = URL(string: credentials.apiURL + "/v1/calls"),
              let body = body(message, credentials: credentials) else { return nil }
        return VonageJSON.request(url: url, body: body, authorization: authorization, timeout: timeout)
    }

    /// For a message that names no voice (its locale's, chosen by the server): the regional
    /// voices Vonage's text-to-speech has for these languages, the first of each the default.
    static let languages: [String: [String]] = [
        "en": ["en-US", "en-GB", "en-AU", "en-IN", "en-ZA", "en-NZ", "en-IE"],
        "es": ["es-ES", "es-MX", "es-US"],
        "fr": ["fr-FR", "fr-CA"],
        "de": ["de-DE"],
        "pt": ["pt-BR", "pt-PT"],
    ]

    /// The locale's own voice when Vonage has one (`en-gb` → `en-GB`), else the language's default.
    static func language(_ message: OutboundMessage) -> String {
        if !message.voice.isEmpty { return message.voice }
        let choices = languages[message.language] ?? languages["en"]!
        let wanted = message.locale.replacingOccurrences(of: "_", with: "-").lowercased()
        return choices.first { $0.lowercased() == wanted } ?? choices[0]
    }
}
