import Foundation
import Testing
@testable import TacitProvidersSMPP

/// Which data coding a text goes in, and the GSM 03.38 septets it becomes.
@Suite("SMPP data coding: GSM 7-bit or UCS-2")
struct SMPPTextTests {
    @Test("a text in the default alphabet goes as GSM 7-bit, one septet per octet, @ as 0x00 and é as 0x05")
    func gsm() {
        let text = SMPPText("Code @1 é")
        #expect(text.dataCoding == 0)
        #expect(text.octets == [0x43, 0x6F, 0x64, 0x65, 0x20, 0x00, 0x31, 0x20, 0x05])
    }

    @Test("a character of the extension table is sent as the escape and its value, and counts twice",
          arguments: [("€", UInt8(0x65)), ("[", 0x3C), ("]", 0x3E), ("{", 0x28), ("}", 0x29), ("~", 0x3D), ("\\", 0x2F), ("|", 0x40), ("^", 0x14)])
    func escapes(character: String, value: UInt8) {
        #expect(GSM7.encode(character) == [0x1B, value])
        #expect(GSM7.decode([0x1B, value]) == character)
    }

    @Test("a text with a character outside GSM 03.38 goes as UCS-2, big-endian, surrogate pairs kept")
    func ucs2() {
        let text = SMPPText("Код 1 😀")
        #expect(text.dataCoding == 8)
        #expect(text.octets == [0x04, 0x1A, 0x04, 0x3E, 0x04, 0x34, 0x00, 0x20, 0x00, 0x31, 0x00, 0x20, 0xD8, 0x3D, 0xDE, 0x00])
    }

    @Test("160 septets fit one message and 161 do not; an escaped character takes two of them")
    func gsmLimits() {
        #expect(SMPPText(String(repeating: "a", count: 160)).fitsOneMessage)
        #expect(!SMPPText(String(repeating: "a", count: 161)).fitsOneMessage)
        #expect(!SMPPText(String(repeating: "a", count: 159) + "€").fitsOneMessage)
    }

    @Test("70 UCS-2 characters fit one message and 71 do not")
    func ucs2Limits() {
        #expect(SMPPText(String(repeating: "ж", count: 70)).fitsOneMessage)
        #expect(!SMPPText(String(repeating: "ж", count: 71)).fitsOneMessage)
    }

    @Test("every character of the default alphabet decodes back from the septet it encodes to")
    func wholeTable() throws {
        let septets = (0..<128).map(UInt8.init).filter { $0 != 0x1B }
        let text = try #require(GSM7.decode(septets))
        #expect(GSM7.encode(text) == septets)
    }

    @Test("CR LF, which Swift reads as one character, is two septets")
    func crlf() {
        #expect(GSM7.encode("a\r\nb") == [0x61, 0x0D, 0x0A, 0x62])
    }
}
