import TacitCore
import TacitStore

/// What an application's message template may say (docs/locales.md#templates): the code
/// always, only the placeholders its channel fills, and for SMS no more than six parts.
/// The HTTP routes and `tacit apps templates set` refuse by the same rules, naming the field.
public enum TemplateRules {
    /// The channels a template may be written for.
    public static let channels = ["sms", "whatsapp", "voice", "email"]
    /// The most SMS parts a template may take, filled with the longest values it may get.
    public static let maxSegments = 6
    /// The most characters of any template body; an SMS is held to its parts first.
    public static let maxBodyLength = 2_000
    public static let maxSubjectLength = 200

    /// The placeholders `channel` fills.
    public static func placeholders(for channel: String) -> [String] {
        channel == "sms" ? ["code", "brand", "minutes", "app_hash", "origin"] : ["code", "brand", "minutes"]
    }

    /// The names between `{{` and `}}` in `text`, in order, each once.
    public static func placeholders(in text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            let name = String(rest[open.upperBound..<close.lowerBound])
            if !found.contains(name) { found.append(name) }
            rest = rest[close.upperBound...]
        }
        return found
    }

    /// Every reason the template breaks the rules, by field (`channel`, `locale`, `body`,
    /// `subject`); empty when it may be stored. `settings` are its application's: an SMS is
    /// measured with the autofill lines they add.
    public static func problems(channel: String, locale: String, body: String, subject: String?,
                                settings: ApplicationSettings?) -> [InvalidParameter] {
        var found: [InvalidParameter] = []
        guard channels.contains(channel) else {
            return [InvalidParameter(name: "channel", reason: "must be one of " + channels.joined(separator: ", "))]
        }
        if !isTag(locale) || LocaleCatalog.builtIn.match(locale) == nil {
            found.append(InvalidParameter(name: "locale", reason: LocaleCatalog.unservedReason))
        }
        let known = placeholders(for: channel)
        let unknown = { (text: String) in placeholders(in: text).filter { !known.contains($0) } }
        if body.isEmpty {
            found.append(InvalidParameter(name: "body", reason: "is required"))
        } else if let name = unknown(body).first {
            found.append(InvalidParameter(name: "body", reason: "has the unknown placeholder {{\(name)}}; "
                                          + "\(channel) knows " + known.map { "{{\($0)}}" }.joined(separator: ", ")))
        } else if !body.contains("{{code}}") {
            found.append(InvalidParameter(name: "body", reason: "must contain {{code}}"))
        } else if body.count > maxBodyLength {
            found.append(InvalidParameter(name: "body", reason: "must be at most \(maxBodyLength) characters"))
        } else if channel == "sms" {
            let segments = longest(body, settings: settings).segments
            if segments > maxSegments {
                found.append(InvalidParameter(
                    name: "body", reason: "would take \(segments) SMS segments; at most \(maxSegments) are allowed"))
            }
        }
        if let subject {
            if channel != "email" {
                found.append(InvalidParameter(name: "subject", reason: "is only for channel email"))
            } else if subject.isEmpty || subject.count > maxSubjectLength || subject.contains(where: \.isNewline) {
                found.append(InvalidParameter(name: "subject",
                                              reason: "must be one line of 1 to \(maxSubjectLength) characters"))
            } else if let name = unknown(subject).first {
                found.append(InvalidParameter(name: "subject", reason: "has the unknown placeholder {{\(name)}}"))
            }
        }
        return found
    }

    /// How `body` travels as an SMS filled with the longest values a start may give it: a
    /// 10-digit code, an 18-character brand, 15 minutes, an app hash line and the
    /// application's origin line.
    public static func longest(_ body: String, settings: ApplicationSettings?) -> SMSEncoding {
        let code = String(repeating: "0", count: VerificationOptions.codeLengthRange.upperBound)
        let values = ["code": code, "brand": String(repeating: "B", count: 18), "minutes": "15",
                      "app_hash": settings?.smsAppHash ?? String(repeating: "A", count: 11),
                      "origin": settings?.smsOrigin ?? ""]
        let filled = MessageComposer.fill(body, values)
        return SMSEncoding(SMSAutofill.append(to: filled, appHash: values["app_hash"], origin: settings?.smsOrigin,
                                              code: code))
    }

    /// How `body` travels as an SMS for a typical start of the application: its brand and
    /// code length (else the server's defaults), its step lifetime and its autofill lines.
    public static func typical(_ body: String, settings: ApplicationSettings?) -> SMSEncoding {
        let defaults = VerificationOptions()
        let code = String(repeating: "0", count: settings?.codeLength ?? defaults.codeLength)
        let values = ["code": code, "brand": settings?.brand ?? defaults.brand,
                      "minutes": String(MessageComposer.minutes(settings?.channelTimeout ?? defaults.channelTimeout)),
                      "app_hash": settings?.smsAppHash ?? "", "origin": settings?.smsOrigin ?? ""]
        return SMSEncoding(SMSAutofill.append(to: MessageComposer.fill(body, values), appHash: settings?.smsAppHash,
                                              origin: settings?.smsOrigin, code: code))
    }

    /// A BCP 47 tag's shape: subtags of 1 to 8 letters and digits joined by `-`.
    static func isTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return !text.isEmpty && text.count <= 35 && parts.allSatisfy { part in
            (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
