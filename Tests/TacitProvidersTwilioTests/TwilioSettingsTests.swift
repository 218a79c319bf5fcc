import Foundation
import Testing
import TacitCore
import TacitServer
@testable import TacitProvidersTwilio

/// Start-up checks on Twilio's settings: a missing piece names its setting, never a value.
@Suite("Twilio settings: what is configured, and what stops the server")
struct TwilioSettingsTests {
    static let sid = "AC" + String(repeating: "0a", count: 16)
    static let token = "tok_" + String(repeating: "9", count: 28)

    static func parse(_ values: [String: String]) throws(ProviderSetupError) -> TwilioSettings? {
        try TwilioSettings(ProviderSettings(values), publicURL: "https://tacit.example/")
    }

    @Test("no Twilio setting, or the auth token alone (which only verifies callbacks), configures nothing")
    func notConfigured() throws {
        #expect(try Self.parse([:]) == nil)
        #expect(try Self.parse(["TACIT_TWILIO_AUTH_TOKEN": Self.token]) == nil)
    }

    @Test("a full set configures Twilio, the default API URL and the public URL without a trailing slash")
    func configured() throws {
        let settings = try #require(try Self.parse(["TACIT_TWILIO_ACCOUNT_SID": Self.sid, "TACIT_TWILIO_AUTH_TOKEN": Self.token,
                                                    "TACIT_TWILIO_FROM": "+15005550006"]))
        #expect(settings.apiURL == "https://api.twilio.com")
        #expect(settings.publicURL == "https://tacit.example")
        #expect(settings.channels == [.sms, .whatsapp, .voice])
    }

    @Test("a missing credential or sender, or a malformed value, names the setting and never a value", arguments: [
        (["TACIT_TWILIO_FROM": "+15005550006", "TACIT_TWILIO_AUTH_TOKEN": token], "TACIT_TWILIO_ACCOUNT_SID"),
        (["TACIT_TWILIO_ACCOUNT_SID": sid, "TACIT_TWILIO_FROM": "+15005550006"], "TACIT_TWILIO_AUTH_TOKEN"),
        (["TACIT_TWILIO_ACCOUNT_SID": sid, "TACIT_TWILIO_AUTH_TOKEN": token], "TACIT_TWILIO_FROM or TACIT_TWILIO_MESSAGING_SERVICE_SID"),
        (["TACIT_TWILIO_ACCOUNT_SID": "not-" + sid, "TACIT_TWILIO_AUTH_TOKEN": token, "TACIT_TWILIO_FROM": "+15005550006"], "TACIT_TWILIO_ACCOUNT_SID"),
        (["TACIT_TWILIO_ACCOUNT_SID": sid, "TACIT_TWILIO_AUTH_TOKEN": token, "TACIT_TWILIO_FROM": "+15005550006",
          "TACIT_TWILIO_API_URL": "ftp://\(token)@x"], "TACIT_TWILIO_API_URL"),
    ])
    func refused(values: [String: String], setting: String) {
        #expect {
            _ = try Self.parse(values)
        } throws: { error in
            guard let error = error as? ProviderSetupError else { return false }
            let line = error.description
            return error.setting == setting && line.hasPrefix(setting + ":") && !line.contains(Self.token) && !line.contains(Self.sid)
        }
    }
}
