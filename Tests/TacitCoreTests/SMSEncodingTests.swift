import Testing
@testable import TacitCore

/// GSM-7 or UCS-2, and how many parts: the figures a provider bills by.
@Suite("SMS encoding and parts")
struct SMSEncodingTests {
    @Test("GSM-7 text: 160 septets in one part, 161 in two of 153")
    func gsm() {
        #expect(SMSEncoding(String(repeating: "a", count: 160)) == SMSEncoding(String(repeating: "a", count: 160)))
        let one = SMSEncoding(String(repeating: "a", count: 160))
        #expect(one.alphabet == .gsm7 && one.units == 160 && one.segments == 1)
        let two = SMSEncoding(String(repeating: "a", count: 161))
        #expect(two.segments == 2)
        #expect(SMSEncoding(String(repeating: "a", count: 306)).segments == 2)
        #expect(SMSEncoding(String(repeating: "a", count: 307)).segments == 3)
    }

    @Test("the extension table's characters count as two septets and stay GSM-7")
    func extended() {
        let text = SMSEncoding("Price: 5€ [ok]")
        #expect(text.alphabet == .gsm7 && text.units == 17)
        #expect(SMSEncoding(String(repeating: "€", count: 80)).segments == 1)
        #expect(SMSEncoding(String(repeating: "€", count: 81)).segments == 2)
    }

    @Test("GSM's own accented letters stay GSM-7; any other character makes the text UCS-2")
    func ucs2() {
        #expect(SMSEncoding("Ihr Acme-Code lautet 1234. Ä ö ü ß é").alphabet == .gsm7)
        let accented = SMSEncoding("Tu código de Acme es 1234.")
        #expect(accented.alphabet == .ucs2 && accented.units == 26)
        #expect(SMSEncoding(String(repeating: "ж", count: 70)).segments == 1)
        #expect(SMSEncoding(String(repeating: "ж", count: 71)).segments == 2)
        #expect(SMSEncoding(String(repeating: "ж", count: 134)).segments == 2)
        #expect(SMSEncoding(String(repeating: "ж", count: 135)).segments == 3)
        #expect(SMSEncoding("😀").units == 2, "a character outside the BMP takes two UCS-2 units")
    }

    @Test("each ASCII character is measured as the GSM alphabet and its extension table say")
    func asciiTable() {
        for value in UInt8(0)..<128 {
            let scalar = Unicode.Scalar(value)
            let expected = SMSEncoding.basic.contains(scalar) ? 1 : SMSEncoding.extended.contains(scalar) ? 2 : nil
            #expect(SMSEncoding.Length(String(Character(scalar))).septets == expected, "character \(value)")
        }
        #expect(SMSEncoding("Your code: 1234 {ok}").units == 22)
        #expect(SMSEncoding("tab\tstops").alphabet == .ucs2, "a tab is in neither table")
    }
}
