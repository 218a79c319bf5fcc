import Foundation
import TacitProviderKit

/// Twilio Verify's settings for Silent Network Auth (docs/providers.md#twilio-verify-sna): the Verify Service the
/// checks are made in, Verify's base URL, and the account's SID and auth token, which
/// Verify takes over HTTP Basic as Messaging does.
public struct TwilioVerifySettings: Sendable, Equatable {
    public static let serviceSidSetting = "TACIT_TWILIO_VERIFY_SERVICE_SID"
    public static let verifyURLSetting = "TACIT_TWILIO_VERIFY_URL"
    public static let defaultVerifyURL = "https://verify.twilio.com"

    public var accountSid: String
    public var authToken: String
    /// `VA` and 32 hex digits.
    public var serviceSid: String
    /// Without a trailing slash.
    public var verifyURL: String

    public init(
        accountSid: String, authToken: String, serviceSid: String,
        verifyURL: String = TwilioVerifySettings.defaultVerifyURL
    ) {
        self.accountSid = accountSid
        self.authToken = authToken
        self.serviceSid = serviceSid
        var url = verifyURL
        while url.hasSuffix("/") { url.removeLast() }
        self.verifyURL = url
    }

    /// nil when no Verify Service is set; throws naming the setting that is missing or malformed.
    public init?(_ settings: ProviderSettings) throws(ProviderSetupError) {
        guard let service = settings.value(Self.serviceSidSetting) else { return nil }
        guard service.count == 34, service.hasPrefix("VA"), service.dropFirst(2).allSatisfy(\.isHexDigit) else {
            throw ProviderSetupError(setting: Self.serviceSidSetting,
                                     problem: "must be a Verify Service SID (VA followed by 32 hex digits)")
        }
        guard let sid = settings.value(TwilioSettings.accountSidSetting) else {
            throw .missing(TwilioSettings.accountSidSetting, for: "twilio silent_auth")
        }
        guard sid.hasPrefix("AC"), sid.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ProviderSetupError(setting: TwilioSettings.accountSidSetting,
                                     problem: "must be an account SID (AC followed by letters and digits)")
        }
        guard let token = settings.value(TwilioSettings.authTokenSetting) else {
            throw .missing(TwilioSettings.authTokenSetting, for: "twilio silent_auth")
        }
        let url = settings.value(Self.verifyURLSetting) ?? Self.defaultVerifyURL
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            throw ProviderSetupError(setting: Self.verifyURLSetting, problem: "must be an http or https URL")
        }
        self.init(accountSid: sid, authToken: token, serviceSid: service, verifyURL: url)
    }
}
