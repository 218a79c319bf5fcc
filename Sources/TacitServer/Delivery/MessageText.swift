import TacitCore

/// What a code message says, by channel and language. Voice is the text a call speaks,
/// with the digits spaced so a speech engine reads them one by one, twice. In every
/// written text the code is the last run of digits, which is where people (and the
/// tests' recording sender) look for it.
public enum MessageText {
    /// The languages there is a text for; any other locale gets English.
    public static let languages = ["en", "es", "fr", "de", "pt"]

    /// The language a verification's locale (`pt-br`, `de`) is written to in.
    public static func language(for locale: String) -> String {
        let language = String(locale.lowercased().prefix { $0 != "-" && $0 != "_" })
        return languages.contains(language) ? language : "en"
    }

    public static func body(channel: Channel, brand: String, code: String, locale: String = "en") -> String {
        let phrases = Phrases.table[language(for: locale)] ?? Phrases.english
        switch channel {
        case .sms, .silentAuth:
            return phrases.sms(brand, code)
        case .whatsapp:
            return phrases.whatsapp(brand, code)
        case .voice:
            return phrases.voice(brand, code.map(String.init).joined(separator: ", "))
        }
    }

    /// One language's three texts, each from the brand and the code (spoken, for voice).
    private struct Phrases {
        var sms: @Sendable (String, String) -> String
        var whatsapp: @Sendable (String, String) -> String
        var voice: @Sendable (String, String) -> String

        static let english = Phrases(
            sms: { "Your \($0) code is \($1). Don't share it with anyone." },
            whatsapp: { "Your \($0) verification code is \($1). For your security, do not share this code." },
            voice: { "Hello. This is \($0). Your verification code is: \($1). Again, your code is: \($1). Goodbye." })

        static let table: [String: Phrases] = [
            "en": english,
            "es": Phrases(
                sms: { "Tu código de \($0) es \($1). No lo compartas con nadie." },
                whatsapp: { "Por tu seguridad, no compartas este código. Tu código de verificación de \($0) es"
                            + " \($1)." },
                voice: { "Hola. Le llamamos de \($0). Su código de verificación es: \($1). Repito, su código es: \($1)."
                         + " Adiós." }),
            "fr": Phrases(
                sms: { "Ne partagez ce code avec personne. Votre code \($0) est \($1)." },
                whatsapp: { "Pour votre sécurité, ne partagez pas ce code. Votre code de vérification \($0) est"
                            + " \($1)." },
                voice: { "Bonjour. Ici \($0). Votre code de vérification est : \($1). Je répète, votre code est :"
                         + " \($1). Au revoir." }),
            "de": Phrases(
                sms: { "Ihr \($0)-Code lautet \($1). Geben Sie ihn an niemanden weiter." },
                whatsapp: { "Geben Sie diesen Code zu Ihrer Sicherheit nicht weiter. Ihr \($0)-Bestätigungscode lautet"
                            + " \($1)." },
                voice: { "Hallo. Hier ist \($0). Ihr Bestätigungscode lautet: \($1). Noch einmal, Ihr Code lautet:"
                         + " \($1). Auf Wiederhören." }),
            "pt": Phrases(
                sms: { "Seu código \($0) é \($1). Não o compartilhe com ninguém." },
                whatsapp: { "Para sua segurança, não compartilhe este código. Seu código de verificação \($0) é"
                            + " \($1)." },
                voice: { "Olá. Aqui é \($0). Seu código de verificação é: \($1). Repetindo, seu código é: \($1)."
                         + " Tchau." }),
        ]
    }
}
