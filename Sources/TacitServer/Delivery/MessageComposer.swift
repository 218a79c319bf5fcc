import TacitCore
import TacitStore

/// One code message as written for a verification: the application's template for its
/// channel and locale when it has one, else the built-in text, then for an SMS the
/// autofill lines (docs/locales.md#templates, #autofill).
public struct ComposedMessage: Sendable, Equatable {
    public var body: String
    /// The built-in locale the message's language is (`de`), for a voice and the timeline.
    public var language: String
    /// The locale of the application's template used, nil when the built-in text was.
    public var template: String?
    /// How an SMS travels; nil for the other channels.
    public var encoding: SMSEncoding?
    /// An email's subject from the application's template; nil for the built-in one.
    public var subject: String?
}

enum MessageComposer {
    /// The message carrying `code` for `verification` on `channel`, from `templates` (its
    /// application's) and `settings` (its application's SMS autofill).
    static func compose(_ channel: Channel, for verification: Verification, code: String,
                        templates: [MessageTemplate], settings: ApplicationSettings?) -> ComposedMessage {
        let language = MessageText.language(for: verification.locale)
        let kind = channel == .silentAuth ? "sms" : channel.rawValue
        guard let template = template(kind, locale: verification.locale, in: templates) else {
            let body = MessageText.body(channel: channel, brand: verification.brand, code: code,
                                        locale: verification.locale)
            return finish(channel, body: body, language: language, template: nil, verification: verification,
                          code: code, settings: settings)
        }
        let spoken = channel == .voice ? code.map(String.init).joined(separator: ", ") : code
        let appHash = verification.smsAppHash ?? settings?.smsAppHash
        let values = ["code": spoken, "brand": verification.brand,
                      "minutes": String(minutes(verification.channelTimeout)),
                      "app_hash": appHash ?? "", "origin": settings?.smsOrigin ?? ""]
        var composed = finish(channel, body: fill(template.body, values), language: language,
                              template: template.locale, verification: verification, code: code, settings: settings)
        if channel == .email { composed.subject = template.subject.map { fill($0, values) } }
        return composed
    }

    private static func finish(_ channel: Channel, body: String, language: String, template: String?,
                               verification: Verification, code: String,
                               settings: ApplicationSettings?) -> ComposedMessage {
        guard channel == .sms else {
            return ComposedMessage(body: body, language: language, template: template, encoding: nil)
        }
        // Sliced, not rebuilt from a reversed sequence: that generic copy was a twentieth of a create.
        let end = body.lastIndex { !$0.isWhitespace }.map(body.index(after:)) ?? body.startIndex
        let trimmed = String(body[..<end])
        let text = SMSAutofill.append(to: trimmed, appHash: verification.smsAppHash ?? settings?.smsAppHash,
                                      origin: settings?.smsOrigin, code: code)
        return ComposedMessage(body: text, language: language, template: template, encoding: SMSEncoding(text))
    }

    /// The application's template for `channel` in `locale` by BCP 47 lookup (`es-ar`,
    /// then `es`), then for the built-in locale the tag is written in (an alias's own tag);
    /// nil when none, and the built-in text is used.
    static func template(_ channel: String, locale: String, in templates: [MessageTemplate]) -> MessageTemplate? {
        let mine = templates.filter { $0.channel == channel }
        guard !mine.isEmpty else { return nil }
        var subtags = locale.lowercased().replacingOccurrences(of: "_", with: "-").split(separator: "-")
        var tags: [String] = []
        while !subtags.isEmpty {
            tags.append(subtags.joined(separator: "-"))
            subtags.removeLast()
        }
        tags.append(MessageText.language(for: locale))
        for tag in tags {
            if let found = mine.first(where: { $0.locale == tag }) { return found }
        }
        return nil
    }

    /// `text` with each `{{name}}` of `values` replaced, in one pass: a value (a brand is
    /// the caller's text) never turns into a placeholder.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        PlaceholderText(text).render(values)
    }

    /// A step's lifetime in whole minutes, at least one: what `{{minutes}}` says.
    static func minutes(_ seconds: Int) -> Int {
        max(1, seconds / 60)
    }
}
