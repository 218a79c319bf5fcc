import TacitCore

/// What a code message says, by channel and locale, from the built-in locales' texts
/// (`LocaleCatalog`). Voice is the text a call speaks, with the digits spaced so a speech
/// engine reads them one by one, twice. In every written text the code is the last run of
/// digits, which is where people (and the tests' recording sender) look for it.
public enum MessageText {
    /// The tags of the built-in locales.
    public static var languages: [String] { LocaleCatalog.builtIn.locales.keys.sorted() }

    /// The built-in locale a verification's locale (`pt-br`, `de`) is written in.
    public static func language(for locale: String) -> String {
        LocaleCatalog.builtIn.locale(for: locale).tag
    }

    public static func body(channel: Channel, brand: String, code: String, locale: String = "en") -> String {
        let texts = LocaleCatalog.builtIn.locale(for: locale)
        switch channel {
        case .sms, .silentAuth:
            return texts.render("sms", brand: brand, code: code)
        case .whatsapp:
            return texts.render("whatsapp", brand: brand, code: code)
        case .voice:
            return texts.render("voice", brand: brand, code: code.map(String.init).joined(separator: ", "))
        }
    }

    /// How the SMS for a code of `length` digits travels: its alphabet and parts. Every
    /// digit is in GSM-7, so any code of that length gives the same answer.
    public static func smsEncoding(brand: String, codeLength: Int, locale: String) -> SMSEncoding {
        let template = LocaleCatalog.builtIn.locale(for: locale).parsedTexts["sms"] ?? PlaceholderText("")
        return template.smsEncoding(["code": String(repeating: "0", count: codeLength), "brand": brand])
    }
}
