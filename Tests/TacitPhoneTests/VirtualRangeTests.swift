import Testing
import TacitPhone

@Suite("The +990 virtual operator range")
struct VirtualRangeTests {
    let parser = PhoneNumberParser()

    @Test("accepted as-is when allowed, with 5 to 12 digits after +990", arguments: [
        "+99012345", "+99012345670", "+990123456789012", "+990 1234 5670",
    ])
    func allowed(text: String) throws {
        let number = try parser.parse(text, allowVirtualRange: true)
        #expect(number.e164 == text.filter { $0 != " " })
        #expect(number.isVirtual)
        #expect(number.region == nil)
        #expect(number.countryCallingCode == 990)
        #expect(number.lineType == .mobile)
    }

    @Test("invalid when the range is turned off")
    func disallowed() {
        #expect {
            try parser.parse("+99012345670", allowVirtualRange: false)
        } throws: { error in
            (error as? PhoneNumberError)?.code == "invalid"
        }
    }

    @Test("too few or too many digits after +990 are refused", arguments: [
        ("+9901234", "too_short"), ("+9901234567890123", "too_long"),
    ])
    func wrongLength(text: String, code: String) {
        #expect {
            try parser.parse(text, allowVirtualRange: true)
        } throws: { error in
            (error as? PhoneNumberError)?.code == code
        }
    }
}
