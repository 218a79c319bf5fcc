import Testing
import TacitCrypto

@Suite("Twilio request signatures")
struct TwilioSignatureTests {
    static let url = "https://example.com/twilio/status?provider=1"
    // Given out of order on purpose: the signature sorts them by name.
    static let parameters: [(name: String, value: String)] = [
        ("MessageStatus", "delivered"), ("MessageSid", "SM0001"), ("ErrorCode", ""), ("AccountSid", "AC0001"),
    ]
    // Computed independently with Python's hmac and base64.
    static let expected = "aaK/H7pKytu+5CsNsfF2bldPeWY="

    @Test("matches an independently computed signature")
    func vector() {
        #expect(TwilioSignature.compute(authToken: "test-auth-token", url: Self.url, parameters: Self.parameters) == Self.expected)
    }

    @Test("accepts the right signature and refuses a changed parameter or token")
    func validation() {
        #expect(TwilioSignature.isValid(Self.expected, authToken: "test-auth-token", url: Self.url, parameters: Self.parameters))
        #expect(!TwilioSignature.isValid(Self.expected, authToken: "other", url: Self.url, parameters: Self.parameters))
        var changed = Self.parameters
        changed[0].value = "failed"
        #expect(!TwilioSignature.isValid(Self.expected, authToken: "test-auth-token", url: Self.url, parameters: changed))
    }
}
