import Foundation
import TacitCore
import TacitCrypto
import TacitProviderKit

/// A Vonage *application* (Vonage's word: an application id and its RSA key in Vonage's
/// dashboard, nothing to do with Tacit's own applications), with what the Messages API
/// (WhatsApp) and the Voice API need besides: the senders, the template, the API's base URL.
/// Both APIs take only the application's RS256 JWT, never the account's API key.
public struct VonageApplicationCredentials: Sendable {
    public static let applicationIdSetting = "TACIT_VONAGE_APPLICATION_ID"
    public static let privateKeyFileSetting = "TACIT_VONAGE_PRIVATE_KEY_FILE"
    public static let apiURLSetting = "TACIT_VONAGE_API_URL"
    public static let whatsappFromSetting = "TACIT_VONAGE_WHATSAPP_FROM"
    public static let voiceFromSetting = "TACIT_VONAGE_VOICE_FROM"
    public static let whatsappTemplateSetting = "TACIT_VONAGE_WHATSAPP_TEMPLATE"

    public var applicationId: String
    public var privateKey: RSAPrivateKey
    /// Without a trailing slash; `https://api.nexmo.com` unless set.
    public var apiURL: String
    /// The WhatsApp Business number, digits without `+`; nil when WhatsApp is not sent.
    public var whatsappFrom: String?
    /// The number calls come from, digits without `+`; nil when calls are not made.
    public var voiceFrom: String?
    /// An approved WhatsApp authentication template (`name` or `namespace:name`) whose one
    /// parameter is the code; without it WhatsApp goes as text, which WhatsApp delivers only
    /// inside a conversation the user opened.
    public var whatsappTemplate: String?
    /// `TACIT_PUBLIC_URL`: where status and call events come back to.
    public var publicURL: String?

    public init(applicationId: String, privateKey: RSAPrivateKey, apiURL: String = "https://api.nexmo.com",
                whatsappFrom: String? = nil, voiceFrom: String? = nil, whatsappTemplate: String? = nil,
                publicURL: String? = nil) {
        self.applicationId = applicationId
        self.privateKey = privateKey
        self.apiURL = Self.trimmed(apiURL)
        self.whatsappFrom = whatsappFrom.map(Self.digits)
        self.voiceFrom = voiceFrom.map(Self.digits)
        self.whatsappTemplate = whatsappTemplate
        self.publicURL = publicURL.map(Self.trimmed)
    }

    /// WhatsApp with a WhatsApp sender, voice with a voice sender.
    public var channels: Set<Channel> {
        var channels: Set<Channel> = []
        if whatsappFrom != nil { channels.insert(.whatsapp) }
        if voiceFrom != nil { channels.insert(.voice) }
        return channels
    }

    static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// The Messages and Voice APIs take numbers without their `+`; keep the setting as people write it.
    static func digits(_ number: String) -> String {
        number.hasPrefix("+") ? String(number.dropFirst()) : number
    }
}
