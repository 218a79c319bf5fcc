import Foundation
import TacitCore
import TacitProviderKit

/// Twilio's settings (docs/providers.md#twilio): the account SID and auth token for HTTP Basic, a sender
/// (`TACIT_TWILIO_FROM`, or a Messaging Service, which carries SMS and WhatsApp but
/// not calls), the API's base URL, and the public URL status callbacks come back to.
public struct TwilioSettings: Sendable, Equatable {
    public static let accountSidSetting = "TACIT_TWILIO_ACCOUNT_SID"
    public static let authTokenSetting = "TACIT_TWILIO_AUTH_TOKEN"
    public static let fromSetting = "TACIT_TWILIO_FROM"
    public static let messagingServiceSetting = "TACIT_TWILIO_MESSAGING_SERVICE_SID"
    public static let apiURLSetting = "TACIT_TWILIO_API_URL"
    public static let whatsappContentSetting = "TACIT_TWILIO_WHATSAPP_CONTENT_SID"

    public var accountSid: String
    public var authToken: String
    /// E.164 number or alphanumeric sender ID; WhatsApp sends from `whatsapp:` and it.
    public var from: String?
    public var messagingServiceSid: String?
    /// Without a trailing slash; `https://api.twilio.com` unless set.
    public var apiURL: String
    /// `TACIT_PUBLIC_URL`: where `StatusCallback` points. Without it Twilio sends no receipts.
    public var publicURL: String?
    /// An approved WhatsApp authentication template in Twilio's Content API (`HX…`) whose
    /// variable `1` is the code; without it WhatsApp goes as `Body`, which WhatsApp delivers
    /// only inside a conversation the user opened.
    public var whatsappContentSid: String?

    public init(accountSid: String, authToken: String, from: String? = nil, messagingServiceSid: String? = nil,
                apiURL: String = "https://api.twilio.com", publicURL: String? = nil,
                whatsappContentSid: String? = nil) {
        self.accountSid = accountSid
        self.authToken = authToken
        self.from = from
        self.messagingServiceSid = messagingServiceSid
        self.apiURL = Self.trimmed(apiURL)
        self.publicURL = publicURL.map(Self.trimmed)
        self.whatsappContentSid = whatsappContentSid
    }

    /// nil when Twilio is not configured: none of the account SID, `FROM` and the
    /// Messaging Service is set. The auth token alone is not a configuration, since it
    /// also verifies callbacks for a Twilio account Tacit does not send through.
    public init?(_ settings: ProviderSettings, publicURL: String?) throws(ProviderSetupError) {
        let sid = settings.value(Self.accountSidSetting)
        let from = settings.value(Self.fromSetting)
        let service = settings.value(Self.messagingServiceSetting)
        guard sid != nil || from != nil || service != nil else { return nil }
        // An account that only does Silent Network Auth through Verify sends no messages.
        if from == nil, service == nil, settings.value(TwilioVerifySettings.serviceSidSetting) != nil { return nil }
        guard let sid else { throw .missing(Self.accountSidSetting, for: "twilio") }
        guard sid.hasPrefix("AC"), sid.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ProviderSetupError(setting: Self.accountSidSetting,
                                     problem: "must be an account SID (AC followed by letters and digits)")
        }
        guard let token = settings.value(Self.authTokenSetting) else {
            throw .missing(Self.authTokenSetting, for: "twilio")
        }
        guard from != nil || service != nil else {
            throw .missing(Self.fromSetting + " or " + Self.messagingServiceSetting, for: "twilio")
        }
        let apiURL = settings.value(Self.apiURLSetting) ?? "https://api.twilio.com"
        guard let url = URL(string: apiURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ProviderSetupError(setting: Self.apiURLSetting, problem: "must be an http or https URL")
        }
        let content = settings.value(Self.whatsappContentSetting)
        if let content {
            guard content.count == 34, content.hasPrefix("HX"), content.dropFirst(2).allSatisfy(\.isHexDigit) else {
                throw ProviderSetupError(setting: Self.whatsappContentSetting,
                                         problem: "must be a Content SID (HX followed by 32 hex digits)")
            }
        }
        self.init(accountSid: sid, authToken: token, from: from, messagingServiceSid: service, apiURL: apiURL,
                  publicURL: publicURL, whatsappContentSid: content)
    }

    /// SMS and WhatsApp always; voice only with a `FROM` number, since calls need one.
    public var channels: Set<Channel> { from == nil ? [.sms, .whatsapp] : [.sms, .whatsapp, .voice] }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
