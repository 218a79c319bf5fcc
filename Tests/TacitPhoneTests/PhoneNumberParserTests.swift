import Testing
import TacitPhone

@Suite("Phone number parsing")
struct PhoneNumberParserTests {
    let parser = PhoneNumberParser()

    @Test("mobile numbers from several countries parse to E.164 with region and calling code", arguments: [
        ("+12015550123", "+12015550123", "US", 1),
        ("+44 7400 123456", "+447400123456", "GB", 44),
        // libphonenumber files 07911 mobiles under Guernsey, which shares +44.
        ("+44 7911 123456", "+447911123456", "GG", 44),
        ("+49 151 23456789", "+4915123456789", "DE", 49),
        ("+91 81234 56789", "+918123456789", "IN", 91),
        ("+33 6 12 34 56 78", "+33612345678", "FR", 33),
    ])
    func internationalMobiles(text: String, e164: String, region: String, callingCode: Int) throws {
        let number = try parser.parse(text, allowVirtualRange: false)
        #expect(number.e164 == e164)
        #expect(number.region == region)
        #expect(number.countryCallingCode == callingCode)
        #expect(!number.isVirtual)
    }

    @Test("national formats read in their default region", arguments: [
        ("07911 123456", "GB", "+447911123456"),
        ("(201) 555-0123", "US", "+12015550123"),
        ("0151 23456789", "DE", "+4915123456789"),
        ("06.12.34.56.78", "FR", "+33612345678"),
        ("081234-56789", "in", "+918123456789"),
    ])
    func nationalFormats(text: String, region: String, e164: String) throws {
        #expect(try parser.parse(text, defaultRegion: region, allowVirtualRange: false).e164 == e164)
    }

    @Test("a national number without a default region asks for a country code")
    func nationalWithoutRegion() {
        #expect(throws: PhoneNumberError.missingRegion) {
            try parser.parse("07911 123456", allowVirtualRange: false)
        }
    }

    @Test("US numbers, which can't be told apart from fixed lines, are accepted")
    func usFixedOrMobile() throws {
        #expect(try parser.parse("+12015550123", allowVirtualRange: false).lineType == .fixedLineOrMobile)
    }

    @Test("fixed, premium-rate, shared-cost and UAN lines parse with their type, for the start's fraud rules",
          arguments: [
        ("+442079460000", PhoneLineType.fixedLine), ("+493012345678", .fixedLine), ("+449098765432", .premiumRate),
        ("+33810123456", .sharedCost), ("+445512345678", .uan),
    ])
    func judgedAtStart(text: String, lineType: PhoneLineType) throws {
        #expect(try parser.parse(text, allowVirtualRange: false).lineType == lineType)
    }

    @Test("lines that can't receive a code are refused as not_mobile", arguments: [
        ("+448001234567", PhoneLineType.tollFree),
        ("+18002345678", .tollFree),
    ])
    func notMobile(text: String, lineType: PhoneLineType) {
        #expect(throws: PhoneNumberError.notMobile(lineType)) {
            try parser.parse(text, allowVirtualRange: false)
        }
    }

    @Test("garbage is refused with a stable code", arguments: [
        ("", "empty"), ("   ", "empty"), ("abc", "invalid"), ("+", "invalid"), ("+44abc", "invalid"),
        ("+44 7911", "too_short"), ("+999 1234 5678", "invalid_country_code"),
        ("123456789012345678901234567890", "too_long"), ("+447911123456789", "too_long"),
        ("+1 555 012 3456", "invalid"),
    ])
    func garbage(text: String, code: String) {
        #expect {
            try parser.parse(text, defaultRegion: text.hasPrefix("+") ? nil : "GB", allowVirtualRange: true)
        } throws: { error in
            (error as? PhoneNumberError)?.code == code
        }
    }

    @Test("digits outside ASCII and over-long plain numbers are refused, whichever path reads them", arguments: [
        ("+99012345\u{0666}70", "invalid"), ("+\u{FF19}9012345670", "invalid"), ("+990123456789012345", "too_long"),
        ("+9901234", "too_short"), ("+990 1234 5670", "ok"), ("+99012345670", "ok"),
    ])
    func plainAndFormattedNumbers(text: String, code: String) {
        do {
            let number = try parser.parse(text, allowVirtualRange: true)
            #expect(code == "ok")
            #expect(number.e164 == "+99012345670")
        } catch {
            #expect(error.code == code)
        }
    }

    @Test("an error's description never contains the number, not even its last digits", arguments: [
        "+448001234567", "+44 7911", "+447911123456789", "+99012345670", "+999 1234 5678",
    ])
    func errorsDoNotLeak(text: String) {
        let lastDigits = String(text.filter(\.isNumber).suffix(4))
        do {
            _ = try parser.parse(text, allowVirtualRange: false)
            Issue.record("expected a failure")
        } catch {
            #expect(!error.description.contains(lastDigits))
        }
    }
}
