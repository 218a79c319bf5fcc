import Foundation
import Testing
import TacitCore
import TacitServer

/// The code messages in each language Tacit writes.
@Suite("Message texts: per language, with the brand and the code")
struct MessageTextTests {
    @Test("every language's SMS and WhatsApp text names the brand and ends its digits with the code", arguments: MessageText.languages)
    func written(language: String) {
        for channel in [Channel.sms, .whatsapp] {
            let text = MessageText.body(channel: channel, brand: "Acme", code: "482913", locale: language)
            #expect(text.contains("Acme"))
            #expect(text.split(whereSeparator: { !$0.isNumber }).last == "482913")
        }
    }

    @Test("every language's voice text reads the code digit by digit, twice", arguments: MessageText.languages)
    func spoken(language: String) {
        let text = MessageText.body(channel: .voice, brand: "Acme", code: "4829", locale: language)
        #expect(text.components(separatedBy: "4, 8, 2, 9").count == 3)
        #expect(text.contains("Acme"))
    }

    @Test("a locale is written in its language, and one Tacit has no text for in English", arguments: [
        ("pt-br", "pt"), ("de", "de"), ("fr_CA", "fr"), ("es-mx", "es"), ("en-gb", "en"), ("it-it", "en"), ("", "en"),
    ])
    func languages(locale: String, language: String) {
        #expect(MessageText.language(for: locale) == language)
    }

    @Test("the texts differ by language")
    func distinct() {
        let texts = Set(MessageText.languages.map { MessageText.body(channel: .sms, brand: "Acme", code: "1234", locale: $0) })
        #expect(texts.count == MessageText.languages.count)
    }
}
