import Testing
import TacitCore

@Suite("Redactor: provider message ids")
struct RedactorProviderIdTests {
    @Test("a provider's id is kept whole, digits and all, but a number or free text passed as one is scrubbed")
    func providerIds() {
        let sid = "SM20261201" + String(repeating: "ab", count: 12)
        #expect(Redactor.redact(.providerId(sid)) == .string(sid))
        // Vonage's SMS API ids may start with a digit.
        #expect(Redactor.redact(.providerId("0A0000000123ABCD1")) == .string("0A0000000123ABCD1"))
        #expect(Redactor.redact(.providerId("+447911123456")) != .string("+447911123456"))
        #expect(Redactor.redact(.providerId("447911123456")) != .string("447911123456"))
        #expect(Redactor.redact(.providerId("123456")) != .string("123456"))
        #expect(Redactor.redact(.providerId("code 123456")) == Redactor.redact(.text("code 123456")))
    }
}
