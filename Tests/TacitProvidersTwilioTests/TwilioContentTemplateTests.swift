import Foundation
import Testing
import TacitCore
import TacitServer
import TacitTesting
@testable import TacitProvidersTwilio

/// WhatsApp through a Content template (an approved authentication template): `ContentSid`
/// and `ContentVariables` with the code as variable 1, in place of `Body`.
@Suite("Twilio WhatsApp with a Content template")
struct TwilioContentTemplateTests {
    static let contentSid = "HX" + String(repeating: "b7", count: 16)
    static let settings = TwilioSettings(accountSid: TwilioRequestTests.sid, authToken: "secret-token", from: "+15005550006",
                                         apiURL: "http://127.0.0.1:9/", publicURL: "https://tacit.example/",
                                         whatsappContentSid: contentSid)

    static func message(_ channel: Channel) -> OutboundMessage {
        OutboundMessage(channel: channel, to: "+447700900123", body: "Your Acme verification code is 482913.", verificationId: "vf_abc",
                        step: 1, code: "482913", brand: "Acme")
    }

    @Test("WhatsApp with a Content SID sends ContentSid and ContentVariables {\"1\": code}, and no Body")
    func template() async throws {
        let (_, form, names) = try await TwilioRequestTests.sent(Self.message(.whatsapp), settings: Self.settings)
        #expect(names == ["To", "From", "ContentSid", "ContentVariables", "StatusCallback"])
        #expect(form["ContentSid"] == Self.contentSid)
        #expect(form["ContentVariables"] == #"{"1": "482913"}"#)
        #expect(form["From"] == "whatsapp:+15005550006")
    }

    @Test("SMS still goes as Body when a WhatsApp Content SID is set")
    func smsUnchanged() async throws {
        let (_, form, _) = try await TwilioRequestTests.sent(Self.message(.sms), settings: Self.settings)
        #expect(form["Body"] == "Your Acme verification code is 482913.")
        #expect(form["ContentSid"] == nil)
    }

    @Test("a Content SID that is not HX and 32 hex digits stops the server naming the setting, not its value")
    func malformed() {
        let values = ["TACIT_TWILIO_ACCOUNT_SID": TwilioRequestTests.sid, "TACIT_TWILIO_AUTH_TOKEN": "t", "TACIT_TWILIO_FROM": "+15005550006",
                      "TACIT_TWILIO_WHATSAPP_CONTENT_SID": "HXnot-a-sid"]
        #expect {
            _ = try TwilioSettings(ProviderSettings(values), publicURL: nil)
        } throws: { error in
            guard let error = error as? ProviderSetupError else { return false }
            return error.setting == "TACIT_TWILIO_WHATSAPP_CONTENT_SID" && !error.description.contains("HXnot-a-sid")
        }
    }
}
