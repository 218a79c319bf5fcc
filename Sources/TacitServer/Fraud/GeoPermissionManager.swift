import Foundation
import TacitCore
import TacitPhone
import TacitStore

/// Sets, lists and removes an application's geo permissions (docs/fraud.md#geo-permissions), for
/// `tacit apps geo` and the settings route: which countries each channel may reach.
public struct GeoPermissionManager: Sendable {
    /// Why a permission was refused.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    let store: any GeoPermissionStore

    /// nil when `store` keeps no geo permissions.
    public init?(store: any VerificationStore) {
        guard let store = store as? any GeoPermissionStore else { return nil }
        self.store = store
    }

    /// Lets `channel` of the application reach only `countries`, in `mode`; returns the
    /// permission as stored, or nil when no application has the id.
    public func allow(application: String, channel: Channel, countries: [String], mode: GeoPermission.Mode,
                      now: Date) async throws -> GeoPermission? {
        let permission = GeoPermission(applicationId: application, channel: channel,
                                       countries: try Self.countries(countries), mode: mode, updatedAt: now)
        return try await store.setGeoPermission(permission) ? permission : nil
    }

    /// Lets `channel` of the application reach every country again; false when it already did.
    public func allowAll(application: String, channel: Channel) async throws -> Bool {
        try await store.removeGeoPermission(application: application, channel: channel)
    }

    /// The application's permissions, by channel.
    public func list(application: String) async throws -> [GeoPermission] {
        try await store.geoPermissions(application: application)
    }

    /// The channel `text` names, when a permission can be set for it: `sms`, `voice`,
    /// `whatsapp`, `silent_auth` (or `silent`); `email` is not geographic.
    public static func channel(_ text: String) throws -> Channel {
        let name = text.lowercased() == "silent" ? Channel.silentAuth.rawValue : text.lowercased()
        guard let channel = Channel(rawValue: name), GeoPermission.channels.contains(channel) else {
            throw Refusal(description: "The channel must be one of "
                              + GeoPermission.channels.map(\.rawValue).joined(separator: ", ")
                              + " (email is not geographic).")
        }
        return channel
    }

    /// The countries as stored: upper case, each once, sorted; each an ISO 3166 alpha-2 code
    /// libphonenumber knows (`GB`, not `UK`), and at least one.
    public static func countries(_ texts: [String]) throws -> [String] {
        let codes = Set(texts.map { $0.trimmingCharacters(in: .whitespaces).uppercased() }.filter { !$0.isEmpty })
        guard !codes.isEmpty else {
            throw Refusal(description: "Name at least one country (US,GB); to allow every country, remove the list.")
        }
        if let unknown = codes.sorted().first(where: { !isRegion($0) }) {
            throw Refusal(description: "\(unknown.prefix(8)) is not a country code libphonenumber knows"
                              + " (ISO 3166 alpha-2, such as US or GB).")
        }
        return codes.sorted()
    }

    /// Whether libphonenumber has numbering metadata for `code`: it reads a national number
    /// only with a region it knows, and answers any other with its unknown-region error (the
    /// number is long enough to pass its first check, which would otherwise answer first).
    static func isRegion(_ code: String) -> Bool {
        guard code.utf8.count == 2, code.utf8.allSatisfy({ (65...90).contains($0) }) else { return false }
        do {
            _ = try PhoneNumberParser().parse("123456789", defaultRegion: code, allowVirtualRange: false)
            return true
        } catch {
            return error.code != PhoneNumberError.missingRegion.code
        }
    }
}
