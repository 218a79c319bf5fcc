import Foundation
import TacitCore

/// The TwiML a code call runs: one `<Say>` of the message's text (which already reads the
/// code digit by digit, twice) in a voice for its language, XML-escaped.
enum TwiML {
    /// For a message that names no voice: Twilio's `<Say>` languages, by language then region; the first
    /// of each is the default for the language.
    static let voices: [String: [String]] = [
        "en": ["en-US", "en-GB", "en-AU", "en-IN"],
        "es": ["es-ES", "es-MX", "es-US"],
        "fr": ["fr-FR", "fr-CA"],
        "de": ["de-DE"],
        "pt": ["pt-BR", "pt-PT"],
    ]

    /// The message's own voice (its locale's, chosen by the server) when it names one.
    static func say(_ message: OutboundMessage) -> String {
        let spoken = message.voice.isEmpty ? voice(language: message.language, locale: message.locale) : message.voice
        return "<Response><Say language=\"\(spoken)\">\(MarkupText.escaped(message.body))</Say></Response>"
    }

    /// The locale's own voice when Twilio has one (`en-gb` → `en-GB`), else the language's default.
    static func voice(language: String, locale: String) -> String {
        let choices = voices[language] ?? voices["en"]!
        let wanted = locale.replacingOccurrences(of: "_", with: "-").lowercased()
        return choices.first { $0.lowercased() == wanted } ?? choices[0]
    }
}
