import Foundation
import TacitCore

/// One built-in locale's texts, read from its data file (`Locales/<tag>.json`): the
/// placeholders `{{brand}}` and `{{code}}` are filled when a message is written.
public struct MessageLocale: Sendable, Equatable {
    public let tag: String
    /// The language's name in English, for listings.
    public let name: String
    /// Other tags that mean this locale (`zh-hk` for Traditional Chinese, `no` for Bokmål).
    public let aliases: [String]
    /// The regions whose numbers get this locale when a start names none.
    public let regions: [String]
    /// The providers' text-to-speech voices for it (`de-DE`), the first the default.
    public let voices: [String]
    /// The texts by kind: `sms`, `whatsapp`, `voice`, `email_subject`, `email_body`.
    public let texts: [String: String]
    /// The same texts, split at their placeholders once.
    public let parsedTexts: [String: PlaceholderText]

    public static let kinds = ["sms", "whatsapp", "voice", "email_subject", "email_body"]

    struct Malformed: Error {
        var reason: String
    }

    init(json bytes: [UInt8]) throws {
        guard case .object(let fields) = try JSONParser.parse(bytes),
              let tag = fields["tag"]?.stringValue, let name = fields["name"]?.stringValue else {
            throw Malformed(reason: "a locale file needs an object with tag and name")
        }
        func strings(_ key: String) -> [String] { fields[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        var texts: [String: String] = [:]
        for kind in Self.kinds {
            // Every text but an email's subject carries the code.
            guard let text = fields[kind]?.stringValue, kind == "email_subject" || text.contains("{{code}}") else {
                throw Malformed(reason: "\(tag): \(kind) is missing or has no {{code}}")
            }
            texts[kind] = text
        }
        self.tag = tag
        self.name = name
        aliases = strings("aliases")
        regions = strings("regions")
        voices = strings("voices")
        self.texts = texts
        parsedTexts = texts.mapValues(PlaceholderText.init)
    }

    /// The text of `kind` with the brand and code in place.
    public func render(_ kind: String, brand: String, code: String) -> String {
        parsedTexts[kind]?.render(["code": code, "brand": brand]) ?? ""
    }
}
