import Foundation
import Testing
import TacitCore
import TacitServer

/// The built-in locales' texts: every one loads from its data file, names the brand and
/// carries the code, is written in its own script or language, and is found by BCP 47 lookup.
@Suite("Message texts: per locale, with the brand and the code")
struct MessageTextTests {
    @Test("at least 40 locales load, each with every kind of text")
    func loaded() {
        #expect(LocaleCatalog.builtIn.locales.count >= 40)
        for locale in LocaleCatalog.builtIn.locales.values {
            #expect(Set(locale.texts.keys) == Set(MessageLocale.kinds), "\(locale.tag)")
            #expect(!locale.voices.isEmpty, "\(locale.tag) has a voice")
        }
    }

    @Test("every locale's SMS and WhatsApp text names the brand and ends its digits with the code", arguments: MessageText.languages)
    func written(locale: String) {
        for channel in [Channel.sms, .whatsapp] {
            let text = MessageText.body(channel: channel, brand: "Acme", code: "482913", locale: locale)
            #expect(text.contains("Acme"))
            #expect(text.split(whereSeparator: { !$0.isASCII || !$0.isNumber }).last == "482913", "\(locale): \(text)")
        }
        let email = LocaleCatalog.builtIn.locale(for: locale).render("email_body", brand: "Acme", code: "482913")
        #expect(email.contains("Acme") && email.contains("482913"))
    }

    @Test("every locale's voice text reads the code digit by digit, twice", arguments: MessageText.languages)
    func spoken(locale: String) {
        let text = MessageText.body(channel: .voice, brand: "Acme", code: "4829", locale: locale)
        #expect(text.components(separatedBy: "4, 8, 2, 9").count == 3, "\(locale): \(text)")
        #expect(text.contains("Acme"))
    }

    /// Each locale's script, or for a Latin-script one a word of its language a reader
    /// would expect, as this test's own table: a file that drifted into another language fails.
    static let scripts: [String: [ClosedRange<UInt32>]] = [
        "ar": [0x0600...0x06FF], "fa": [0x0600...0x06FF], "ur": [0x0600...0x06FF], "he": [0x0590...0x05FF],
        "ru": [0x0400...0x04FF], "uk": [0x0400...0x04FF], "bg": [0x0400...0x04FF], "sr": [0x0400...0x04FF],
        "el": [0x0370...0x03FF], "hi": [0x0900...0x097F], "bn": [0x0980...0x09FF], "ta": [0x0B80...0x0BFF],
        "th": [0x0E00...0x0E7F], "ja": [0x3040...0x30FF, 0x4E00...0x9FFF], "ko": [0xAC00...0xD7AF],
        "zh": [0x4E00...0x9FFF], "zh-tw": [0x4E00...0x9FFF], "yue": [0x4E00...0x9FFF],
    ]
    static let words: [String: String] = [
        "en": "code", "es": "código", "fr": "code", "fr-ca": "code", "de": "Code", "pt": "código",
        "pt-pt": "partilhe", "it": "codice", "nl": "code", "sv": "kod", "da": "kode", "nb": "Koden",
        "fi": "koodi", "is": "kóð", "pl": "kod", "cs": "kód", "sk": "kód", "hu": "kód", "ro": "Codul",
        "hr": "kod", "sl": "koda", "et": "kood", "lv": "kods", "lt": "kodas", "tr": "kod", "vi": "Mã",
        "id": "Kode", "ms": "Kod", "fil": "code", "sw": "Nambari", "ca": "codi", "cy": "cod",
    ]

    @Test("every locale is written in its own script or language", arguments: MessageText.languages)
    func script(locale: String) {
        let text = MessageText.body(channel: .sms, brand: "Acme", code: "1234", locale: locale)
        if let ranges = Self.scripts[locale] {
            let letters = text.unicodeScalars.filter { $0.properties.isAlphabetic && !"Acme".unicodeScalars.contains($0) }
            let inScript = letters.allSatisfy { letter in ranges.contains { $0.contains(letter.value) } }
            #expect(!letters.isEmpty && inScript, "\(locale): \(text)")
        } else {
            let word = try? #require(Self.words[locale], "\(locale) needs a script or a word in this test")
            #expect(word.map { text.contains($0) } == true, "\(locale): \(text)")
        }
    }

    @Test("every locale's email subject and body are in its script or language, the body with the code",
          arguments: MessageText.languages)
    func email(locale: String) {
        let subject = MessageText.emailSubject(brand: "Acme", locale: locale)
        let body = MessageText.body(channel: .email, brand: "Acme", code: "482913", locale: locale)
        #expect(subject.contains("Acme") && !subject.contains("482913"), "\(locale): \(subject)")
        #expect(body.contains("Acme") && body.contains("482913"), "\(locale): \(body)")
        for text in [subject, body] {
            if let ranges = Self.scripts[locale] {
                let letters = text.unicodeScalars.filter { $0.properties.isAlphabetic && !"Acme".unicodeScalars.contains($0) }
                let inScript = letters.allSatisfy { letter in ranges.contains { $0.contains(letter.value) } }
                #expect(!letters.isEmpty && inScript, "\(locale): \(text)")
            }
        }
        if Self.scripts[locale] == nil, let word = Self.words[locale] {
            #expect(body.lowercased().contains(word.lowercased()), "\(locale): \(body)")
        }
        let html = MessageText.emailHTML(body, code: "482913", language: locale)
        #expect(html.contains("<strong>482913</strong>") && html.contains("lang=\"\(locale)\""))
    }

    @Test("an email's HTML escapes the text it is made from")
    func emailHTMLEscapes() {
        let html = MessageText.emailHTML("Your <b>A&B</b> \"code\" is 1234.", code: "1234", language: "en")
        #expect(html.contains("Your &lt;b&gt;A&amp;B&lt;/b&gt; &quot;code&quot; is <strong>1234</strong>."))
        #expect(!html.contains("<b>"))
    }

    @Test("a tag finds its locale as BCP 47 lookup does, whatever its case or separator", arguments: [
        ("pt-br", "pt"), ("PT-PT", "pt-pt"), ("de", "de"), ("fr_CA", "fr-ca"), ("es-mx", "es"), ("es-AR", "es"),
        ("en-gb", "en"), ("it-it", "it"), ("zh-HK", "zh-tw"), ("zh-Hans-CN", "zh"), ("no", "nb"), ("ja-JP", "ja"),
    ])
    func lookup(tag: String, locale: String) {
        #expect(LocaleCatalog.builtIn.match(tag)?.tag == locale)
    }

    @Test("a tag no locale answers is not served, and its text falls back to English")
    func unserved() {
        #expect(LocaleCatalog.builtIn.match("xx-zz") == nil)
        #expect(LocaleCatalog.builtIn.match("klingon") == nil)
        #expect(MessageText.language(for: "xx-zz") == "en")
    }

    @Test("a number's region chooses its locale when the start names none, else English", arguments: [
        ("DE", "de"), ("AT", "de"), ("FR", "fr"), ("JP", "ja"), ("BR", "pt"), ("PT", "pt-pt"), ("TW", "zh-tw"),
        ("CN", "zh"), ("MX", "es"), ("GB", "en"), ("RU", "ru"), ("SA", "ar"), ("KR", "ko"), ("TH", "th"),
    ])
    func regions(region: String, locale: String) {
        let choice = LocaleCatalog.builtIn.choose(requested: nil, region: region)
        #expect(choice.tag == locale && choice.source == "number")
    }

    @Test("the start's own locale wins over its number's, and with neither it is the default")
    func precedence() {
        let asked = LocaleCatalog.builtIn.choose(requested: "fr-ca", region: "DE")
        #expect(asked.tag == "fr-ca" && asked.source == "requested")
        for region in [nil, "001"] {
            let fallback = LocaleCatalog.builtIn.choose(requested: nil, region: region)
            #expect(fallback.tag == "en" && fallback.source == "default")
        }
    }

    @Test("a call speaks in the locale's voice, the tag's own region when it has one", arguments: [
        ("de", "de-DE"), ("es-mx", "es-MX"), ("es-ar", "es-ES"), ("en-gb", "en-GB"), ("ja", "ja-JP"), ("pt-br", "pt-BR"),
        ("fr-ca", "fr-CA"), ("xx-zz", "en-US"),
    ])
    func voices(tag: String, voice: String) {
        #expect(LocaleCatalog.builtIn.voice(for: tag) == voice)
    }

    @Test("the texts differ by locale")
    func distinct() {
        let texts = Set(MessageText.languages.map { MessageText.body(channel: .sms, brand: "Acme", code: "1234", locale: $0) })
        #expect(texts.count == MessageText.languages.count)
    }

    @Test("no built-in SMS takes more than 2 parts with a 10-character brand and a 10-digit code", arguments: MessageText.languages)
    func segments(locale: String) {
        let encoding = MessageText.smsEncoding(brand: "Brandname1", codeLength: 10, locale: locale)
        #expect(encoding.segments <= 2, "\(locale): \(encoding)")
    }
}
