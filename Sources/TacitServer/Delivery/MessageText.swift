import Foundation
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
        case .email:
            return texts.render("email_body", brand: brand, code: code)
        }
    }

    /// An email's subject line in `locale`; it names the brand, never the code.
    public static func emailSubject(brand: String, locale: String = "en") -> String {
        LocaleCatalog.builtIn.locale(for: locale).render("email_subject", brand: brand, code: "")
    }

    /// An email's HTML part, derived from its text: every character escaped, each line a
    /// paragraph, the code (the last run of digits) in bold so it stands out. `lang` lets a
    /// reader's screen reader pick the voice.
    public static func emailHTML(_ text: String, code: String, language: String) -> String {
        let paragraphs = text.split(separator: "\n").map { line -> String in
            var escaped = MarkupText.escaped(String(line))
            if !code.isEmpty, let range = escaped.range(of: code, options: .backwards) {
                escaped.replaceSubrange(range, with: "<strong>\(code)</strong>")
            }
            return "<p>\(escaped)</p>"
        }
        return "<!DOCTYPE html>\n<html lang=\"\(MarkupText.escaped(language))\"><head><meta charset=\"utf-8\"></head>"
            + "<body>\n\(paragraphs.joined(separator: "\n"))\n</body></html>\n"
    }

    /// How the SMS for a code of `length` digits travels: its alphabet and parts. Every
    /// digit is in GSM-7, so any code of that length gives the same answer.
    public static func smsEncoding(brand: String, codeLength: Int, locale: String) -> SMSEncoding {
        let template = LocaleCatalog.builtIn.locale(for: locale).parsedTexts["sms"] ?? PlaceholderText("")
        return template.smsEncoding(["code": String(repeating: "0", count: codeLength), "brand": brand])
    }
}
