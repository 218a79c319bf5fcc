import Foundation
import TacitCore
import TacitProviderKit

/// The SMSC and how Tacit binds to it (docs/providers.md#smpp): `TACIT_SMPP_HOST`, `_PORT`, `_SYSTEM_ID`,
/// `_PASSWORD`, `_SOURCE_ADDR`, plus `_SYSTEM_TYPE`, `_WINDOW`, `_ENQUIRE_LINK_SECONDS` and
/// `_TIMEOUT_SECONDS`. The length limits are SMPP 3.4's field sizes.
public struct SMPPSettings: Sendable, Equatable {
    public static let hostSetting = "TACIT_SMPP_HOST"
    public static let portSetting = "TACIT_SMPP_PORT"
    public static let systemIdSetting = "TACIT_SMPP_SYSTEM_ID"
    public static let passwordSetting = "TACIT_SMPP_PASSWORD"
    public static let systemTypeSetting = "TACIT_SMPP_SYSTEM_TYPE"
    public static let sourceAddrSetting = "TACIT_SMPP_SOURCE_ADDR"
    public static let windowSetting = "TACIT_SMPP_WINDOW"
    public static let enquireLinkSetting = "TACIT_SMPP_ENQUIRE_LINK_SECONDS"
    public static let timeoutSetting = "TACIT_SMPP_TIMEOUT_SECONDS"

    public var host: String
    public var port: Int
    public var systemId: String
    public var password: String
    public var systemType: String
    /// A number (digits, without `+`) or an alphanumeric sender ID.
    public var sourceAddress: String
    /// Requests written and not yet answered, at most.
    public var window: Int
    /// Seconds between `enquire_link`s on a quiet link.
    public var enquireLinkInterval: TimeInterval
    /// Seconds to wait for an answer, and for a link to send on.
    public var timeout: TimeInterval
    /// The first reconnect's delay; each failure in a row doubles it, up to `reconnectCap`.
    public var reconnectDelay: TimeInterval = 0.2
    public var reconnectCap: TimeInterval = 30

    public init(host: String, port: Int = 2775, systemId: String, password: String, systemType: String = "",
                sourceAddress: String, window: Int = 10, enquireLinkInterval: TimeInterval = 30,
                timeout: TimeInterval = 10) {
        self.host = host
        self.port = port
        self.systemId = systemId
        self.password = password
        self.systemType = systemType
        self.sourceAddress = sourceAddress.hasPrefix("+") ? String(sourceAddress.dropFirst()) : sourceAddress
        self.window = window
        self.enquireLinkInterval = enquireLinkInterval
        self.timeout = timeout
    }

    /// nil when none of the host, the system id, the password and the source address is set;
    /// throws naming the first setting that is missing or out of its range.
    public init?(_ settings: ProviderSettings) throws(ProviderSetupError) {
        let named = [Self.hostSetting, Self.systemIdSetting, Self.passwordSetting, Self.sourceAddrSetting]
        guard named.contains(where: { settings.value($0) != nil }) else { return nil }
        func required(_ name: String, limit: Int) throws(ProviderSetupError) -> String {
            guard let value = settings.value(name) else { throw .missing(name, for: "smpp") }
            guard value.utf8.count < limit, value.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw ProviderSetupError(setting: name,
                                         problem: "must be at most \(limit - 1) ASCII characters without spaces")
            }
            return value
        }
        let host = try required(Self.hostSetting, limit: 256)
        let systemId = try required(Self.systemIdSetting, limit: SMPPBind.systemIdLimit)
        let password = try required(Self.passwordSetting, limit: SMPPBind.passwordLimit)
        let source = try required(Self.sourceAddrSetting, limit: SMPPSubmit.addressLimit)
        let systemType = settings.value(Self.systemTypeSetting) == nil
            ? ""
            : try required(Self.systemTypeSetting, limit: SMPPBind.systemTypeLimit)
        self.init(host: host, port: try Self.number(settings, Self.portSetting, 1...65535, default: 2775),
                  systemId: systemId, password: password, systemType: systemType, sourceAddress: source,
                  window: try Self.number(settings, Self.windowSetting, 1...1000, default: 10),
                  enquireLinkInterval: TimeInterval(try Self.number(settings, Self.enquireLinkSetting, 1...3600,
                                                                    default: 30)),
                  timeout: TimeInterval(try Self.number(settings, Self.timeoutSetting, 1...300, default: 10)))
    }

    private static func number(_ settings: ProviderSettings, _ name: String, _ range: ClosedRange<Int>,
                               default value: Int) throws(ProviderSetupError) -> Int {
        guard let text = settings.value(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw ProviderSetupError(setting: name,
                                     problem: "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// SMS only: SMPP carries short messages.
    public var channels: Set<Channel> { [.sms] }
}
