import Foundation
import TacitCore

/// The built-in locales: one data file each under `Sources/TacitServer/Locales`, read once.
/// A tag is matched as BCP 47 asks, case-insensitively and with `_` taken for `-`, dropping
/// subtags from the end until a locale (or one of its aliases) answers: `es-AR` → `es`.
/// A start that names no locale gets the one its number's region speaks, else English.
/// How a translation is added and checked: docs/locales.md.
public struct LocaleCatalog: Sendable {
    /// Every locale by its tag.
    public let locales: [String: MessageLocale]
    /// Tags and aliases, lowercased, to the locale's tag.
    private let tags: [String: String]
    /// ISO 3166 regions to the tag of the locale their numbers get.
    private let regions: [String: String]

    public static let defaultTag = "en"
    /// Why a start's `locale` is refused: no built-in locale answers any prefix of it.
    public static let unservedReason = "is not a locale Tacit has messages for (docs/locales.md lists them)"

    /// The locales shipped with Tacit.
    public static let builtIn = LocaleCatalog(files: Self.bundledFiles())

    /// Reads the locales from their files' bytes; a file that doesn't parse is left out
    /// (the catalog's tests load every file and fail on one).
    public init(files: [[UInt8]]) {
        var locales: [String: MessageLocale] = [:]
        var tags: [String: String] = [:]
        var regions: [String: String] = [:]
        for bytes in files {
            guard let locale = try? MessageLocale(json: bytes) else { continue }
            locales[locale.tag] = locale
            for name in [locale.tag] + locale.aliases { tags[name.lowercased()] = locale.tag }
            for region in locale.regions where regions[region] == nil { regions[region] = locale.tag }
        }
        self.locales = locales
        self.tags = tags
        self.regions = regions
    }

    /// The locale a tag asks for, by BCP 47 lookup; nil when none of its prefixes is served.
    public func match(_ tag: String) -> MessageLocale? {
        // A verification keeps its tag lowercased, and most are a locale's own tag: found
        // without the split, on every message and event a create writes.
        if let found = tags[tag] { return locales[found] }
        var subtags = Self.normalized(tag).split(separator: "-")
        while !subtags.isEmpty {
            if let found = tags[subtags.joined(separator: "-")] { return locales[found] }
            subtags.removeLast()
        }
        return nil
    }

    /// The locale for text, falling back to English for a tag no locale answers.
    public func locale(for tag: String) -> MessageLocale {
        match(tag) ?? locales[Self.defaultTag]!
    }

    /// What a start that asked for `requested` (nil: nothing) gets for a number in `region`.
    public func choose(requested: String?, region: String?) -> (tag: String, source: String) {
        if let requested { return (requested, "requested") }
        if let region, let tag = regions[region.uppercased()] { return (tag, "number") }
        return (Self.defaultTag, "default")
    }

    /// The voice a call speaks `tag` in: the locale's voice for the tag's region when it has
    /// one (`es-MX`), else its first.
    public func voice(for tag: String) -> String {
        let locale = locale(for: tag)
        let wanted = Self.normalized(tag)
        let region = wanted.split(separator: "-").dropFirst().first.map(String.init)
        return locale.voices.first { $0.lowercased() == wanted }
            ?? region.flatMap { region in locale.voices.first { $0.lowercased().hasSuffix("-" + region) } }
            ?? locale.voices.first ?? "en-US"
    }

    /// A tag lowercased with hyphens; a verification's stored tag already is, and is kept as it is.
    static func normalized(_ tag: String) -> String {
        let upper = UInt8(ascii: "A")...UInt8(ascii: "Z")
        let isNormal = tag.utf8.allSatisfy { $0 != UInt8(ascii: "_") && !upper.contains($0) }
        return isNormal ? tag : tag.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    private static func bundledFiles() -> [[UInt8]] {
        guard let folder = Bundle.module.url(forResource: "Locales", withExtension: nil),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            FileManager.default.contents(atPath: folder.appendingPathComponent(name).path).map { Array($0) }
        }
    }
}
