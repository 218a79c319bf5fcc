import Foundation
import TacitCore
import TacitProviderKit

/// The mail server Tacit submits email codes to (docs/providers.md#smtp): `TACIT_SMTP_URL`
/// (`smtp://host:port`, STARTTLS whenever the server offers it, or `smtps://host:port`, TLS
/// from the first byte), `TACIT_SMTP_USERNAME`, `TACIT_SMTP_PASSWORD`, `TACIT_SMTP_FROM`, and
/// `TACIT_SMTP_CA_FILE` for a server whose certificate a private authority signed.
public struct SMTPSettings: Sendable, Equatable {
    public static let urlSetting = "TACIT_SMTP_URL"
    public static let usernameSetting = "TACIT_SMTP_USERNAME"
    public static let passwordSetting = "TACIT_SMTP_PASSWORD"
    public static let fromSetting = "TACIT_SMTP_FROM"
    public static let caFileSetting = "TACIT_SMTP_CA_FILE"

    public var url: String
    public var username: String?
    public var password: String?
    /// The envelope sender and the `From` header.
    public var from: String
    public var caFile: String?
    /// Seconds a submission may take, connection and all; the send's lease is 10 s.
    public var timeout: TimeInterval = 4

    /// `smtps://` asks for TLS from the start; `smtp://` upgrades when the server offers it.
    public var implicitTLS: Bool { url.lowercased().hasPrefix("smtps://") }

    public init(url: String, username: String? = nil, password: String? = nil, from: String,
                caFile: String? = nil) {
        self.url = url
        self.username = username
        self.password = password
        self.from = from
        self.caFile = caFile
    }

    /// nil when `TACIT_SMTP_URL` is not set; throws naming the setting that is missing or wrong.
    public init?(_ settings: ProviderSettings) throws(ProviderSetupError) {
        guard let url = settings.value(Self.urlSetting) else {
            for name in [Self.usernameSetting, Self.passwordSetting, Self.fromSetting]
            where settings.value(name) != nil {
                throw .missing(Self.urlSetting, for: SMTPProvider.name)
            }
            return nil
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("smtp://") || lower.hasPrefix("smtps://"), url.count > 8,
              url.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ProviderSetupError(setting: Self.urlSetting, problem: "must be smtp://host:port or smtps://host:port")
        }
        guard let from = settings.value(Self.fromSetting) else {
            throw .missing(Self.fromSetting, for: SMTPProvider.name)
        }
        guard EmailAddress.problem(from) == nil else {
            throw ProviderSetupError(setting: Self.fromSetting, problem: "must be an email address")
        }
        let username = settings.value(Self.usernameSetting)
        let password = settings.value(Self.passwordSetting)
        if username != nil, password == nil { throw .missing(Self.passwordSetting, for: SMTPProvider.name) }
        let caFile = settings.value(Self.caFileSetting)
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ProviderSetupError(setting: Self.caFileSetting, problem: "is not a readable file")
        }
        self.init(url: url, username: username, password: password, from: from, caFile: caFile)
    }
}
