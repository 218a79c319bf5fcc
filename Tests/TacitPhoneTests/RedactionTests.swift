import Testing
import TacitPhone

@Suite("Phone number redaction")
struct RedactionTests {
    @Test("keeps +, the first two digits and the last four", arguments: [
        ("+14155551234", "+14•••••1234"),
        ("+99012345670", "+99•••••5670"),
        ("+447911123456", "+44•••••3456"),
        ("+4915123456789", "+49•••••6789"),
    ])
    func longNumbers(e164: String, redacted: String) {
        #expect(PhoneNumber.redact(e164) == redacted)
    }

    @Test("short numbers show no leading digits and at most the last four", arguments: [
        ("+99012345", "+•••••2345"),
        ("+6831234", "+•••••234"),
        ("+12", "+•••••2"),
        ("", "+•••••"),
    ])
    func shortNumbers(e164: String, redacted: String) {
        #expect(PhoneNumber.redact(e164) == redacted)
    }

    @Test("a parsed number describes itself redacted, so interpolation can't leak it")
    func descriptionIsRedacted() throws {
        let number = try PhoneNumberParser().parse("+447911123456", allowVirtualRange: false)
        #expect("\(number)" == "+44•••••3456")
        #expect(number.redacted == "+44•••••3456")
    }
}
