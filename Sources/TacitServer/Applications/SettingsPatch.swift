import Foundation
import TacitCore
import TacitStore

/// An application's settings as `/v1/settings` shows and changes them (docs/api.md#settings),
/// one JSON member per setting. A change is a JSON merge patch: a member given replaces the
/// setting, `null` removes it (the server's default then applies), a member left out keeps it.
/// A setting is one entry of `fields`: adding one is adding an entry (and its line in the
/// OpenAPI document).
struct SettingsPatch {
    /// One setting of `ApplicationSettings`: its JSON name, how it reads, and how a value is
    /// checked and written (nil to remove it); a refused value gives the reason.
    struct Field: Sendable {
        let name: String
        let read: @Sendable (ApplicationSettings) -> JSONValue
        let write: @Sendable (inout ApplicationSettings, JSONValue?) -> String?
    }

    static let fields: [Field] = [
        text("brand", \.brand) { brand in
            if brand.isEmpty || brand.count > 18 { return "must be 1 to 18 characters" }
            return VerificationOptions.isPlainText(brand) ? nil : VerificationOptions.plainTextRule
        },
        integer("code_length", \.codeLength, VerificationOptions.codeLengthRange),
        integer("channel_timeout", \.channelTimeout, VerificationOptions.channelTimeoutRange),
        text("sms_app_hash", \.smsAppHash) { SMSAutofill.isAppHash($0) ? nil : SMSAutofill.appHashRule },
        text("sms_origin", \.smsOrigin, stored: { $0.lowercased() }) {
            SMSAutofill.isOrigin($0) ? nil : SMSAutofill.originRule
        },
        // Always set: null puts back the default level (docs/fraud.md#protection-levels).
        Field(name: "fraud_level", read: { .string($0.fraudLevel.rawValue) }) { settings, value in
            guard let value else {
                settings.fraudLevel = .basic
                return nil
            }
            guard case .string(let text) = value, let level = FraudLevel(rawValue: text) else {
                return "must be " + FraudLevel.allCases.map(\.rawValue).joined(separator: ", ") + " or null"
            }
            settings.fraudLevel = level
            return nil
        },
    ]

    /// The member that holds the geo permissions, by channel (`GeoPermission`).
    static let geoName = "geo_permissions"

    /// What the patch changes, once every member was checked.
    var settings: ApplicationSettings
    var settingsChanged = false
    /// Channels whose permission is set, and channels whose list is removed.
    var geoSet: [GeoPermission] = []
    var geoRemoved: [Channel] = []

    /// Reads `patch` against the application's `settings` and `permissions`; throws 422 with
    /// every refused member, so nothing is written unless all of it is good.
    init(_ patch: [String: JSONValue], application: String, settings: ApplicationSettings,
         permissions: [GeoPermission], now: Date) throws(APIProblem) {
        self.settings = settings
        var problems: [InvalidParameter] = []
        for (name, value) in patch.sorted(by: { $0.key < $1.key }) {
            if name == Self.geoName {
                problems += readGeo(value, application: application, permissions: permissions, now: now)
            } else if let field = Self.fields.first(where: { $0.name == name }) {
                if let reason = field.write(&self.settings, value == .null ? nil : value) {
                    problems.append(InvalidParameter(name: name, reason: reason))
                }
                settingsChanged = true
            } else {
                problems.append(InvalidParameter(name: name, reason: "is not a known field"))
            }
        }
        if !problems.isEmpty { throw .invalid(problems) }
    }

    /// The settings document: every field (`null` when unset) and the geo permissions by channel.
    static func document(application: String, settings: ApplicationSettings,
                         permissions: [GeoPermission]) -> JSONValue {
        var members: [String: JSONValue] = ["application": .string(application)]
        for field in fields { members[field.name] = field.read(settings) }
        members[geoName] = .object(Dictionary(uniqueKeysWithValues: permissions.map { permission in
            (permission.channel.rawValue, JSONValue.object([
                "allowed_countries": .array(permission.countries.map { .string($0) }),
                "mode": .string(permission.mode.rawValue),
            ]))
        }))
        return .object(members)
    }

    private mutating func readGeo(_ value: JSONValue, application: String, permissions: [GeoPermission],
                                  now: Date) -> [InvalidParameter] {
        if value == .null {
            geoRemoved = permissions.map(\.channel)
            return []
        }
        guard case .object(let channels) = value else {
            return [InvalidParameter(name: Self.geoName, reason: "must be an object of channels")]
        }
        var problems: [InvalidParameter] = []
        for (name, member) in channels.sorted(by: { $0.key < $1.key }) {
            let path = "\(Self.geoName).\(name)"
            guard let channel = Channel(rawValue: name), GeoPermission.channels.contains(channel) else {
                let reason = name == Channel.email.rawValue ? "is not geographic" : "is not a channel"
                problems.append(InvalidParameter(name: path, reason: reason))
                continue
            }
            let current = permissions.first { $0.channel == channel }
            switch member {
            case .null:
                geoRemoved.append(channel)
            case .object(let fields):
                switch Self.permission(fields, path: path, current: current, application: application,
                                       channel: channel, now: now) {
                case .success(let permission): geoSet.append(permission)
                case .failure(let found): problems += found.problems
                }
            default:
                problems.append(InvalidParameter(name: path, reason: "must be an object or null"))
            }
        }
        return problems
    }

    private struct Problems: Error {
        var problems: [InvalidParameter]
    }

    /// A channel's permission from its patch, merged into the one it has.
    private static func permission(_ fields: [String: JSONValue], path: String, current: GeoPermission?,
                                   application: String, channel: Channel,
                                   now: Date) -> Result<GeoPermission, Problems> {
        var problems: [InvalidParameter] = []
        var countries = current?.countries
        var mode = current?.mode ?? .enforce
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            switch (name, value) {
            case ("allowed_countries", .array(let items)):
                let codes = items.compactMap { item -> String? in
                    if case .string(let code) = item { return code }
                    return nil
                }
                do {
                    guard codes.count == items.count else {
                        throw GeoPermissionManager.Refusal(description: "must be an array of country codes")
                    }
                    countries = try GeoPermissionManager.countries(codes)
                } catch {
                    problems.append(InvalidParameter(name: "\(path).allowed_countries", reason: "\(error)"))
                }
            case ("allowed_countries", _):
                problems.append(InvalidParameter(name: "\(path).allowed_countries",
                                                 reason: "must be an array of country codes; set the channel to"
                                                     + " null to allow every country"))
            case ("mode", .null):
                mode = .enforce
            case ("mode", .string(let text)) where GeoPermission.Mode(rawValue: text) != nil:
                mode = GeoPermission.Mode(rawValue: text) ?? .enforce
            case ("mode", _):
                problems.append(InvalidParameter(name: "\(path).mode", reason: "must be enforce or monitor"))
            default:
                problems.append(InvalidParameter(name: "\(path).\(name)", reason: "is not a known field"))
            }
        }
        if countries == nil, !problems.contains(where: { $0.name == "\(path).allowed_countries" }) {
            problems.append(InvalidParameter(name: "\(path).allowed_countries", reason: "is required"))
        }
        guard problems.isEmpty, let countries else { return .failure(Problems(problems: problems)) }
        return .success(GeoPermission(applicationId: application, channel: channel, countries: countries, mode: mode,
                                      updatedAt: now))
    }

    private static func text(_ name: String, _ path: WritableKeyPath<ApplicationSettings, String?> & Sendable,
                             stored: @escaping @Sendable (String) -> String = { $0 },
                             rule: @escaping @Sendable (String) -> String?) -> Field {
        Field(name: name, read: { $0[keyPath: path].map(JSONValue.string) ?? .null }) { settings, value in
            guard let value else {
                settings[keyPath: path] = nil
                return nil
            }
            guard case .string(let text) = value else { return "must be a string or null" }
            if let reason = rule(text) { return reason }
            settings[keyPath: path] = stored(text)
            return nil
        }
    }

    private static func integer(_ name: String, _ path: WritableKeyPath<ApplicationSettings, Int?> & Sendable,
                                _ range: ClosedRange<Int>) -> Field {
        Field(name: name, read: { $0[keyPath: path].map { .number(Double($0)) } ?? .null }) { settings, value in
            guard let value else {
                settings[keyPath: path] = nil
                return nil
            }
            guard case .number(let number) = value, number.rounded() == number, abs(number) < 1e9,
                  range.contains(Int(number)) else {
                return "must be an integer from \(range.lowerBound) to \(range.upperBound), or null"
            }
            settings[keyPath: path] = Int(number)
            return nil
        }
    }
}
