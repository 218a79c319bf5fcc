import Foundation
import Testing
@testable import TacitProvidersSMPP

/// The PDU codec: headers, C-octet strings and TLVs round trip, and bytes that are not a
/// PDU Tacit takes are refused with a reason rather than read past.
@Suite("SMPP PDU codec")
struct SMPPCodecTests {
    @Test("a PDU's header and body come back as they were encoded, with the length counting the header")
    func roundTrip() throws {
        let pdu = SMPPPDU(.submitSm, sequence: 0x0102_0304, body: [1, 2, 3])
        let bytes = pdu.encoded()
        #expect(Array(bytes.prefix(16)) == [0, 0, 0, 19, 0, 0, 0, 4, 0, 0, 0, 0, 1, 2, 3, 4])
        #expect(try SMPPPDU.decode(bytes) == pdu)
    }

    @Test("bind_transceiver carries the system id, password and type as C-octet strings and interface version 0x34")
    func bind() {
        let body = SMPPBind(systemId: "tacit", password: "pw", systemType: "OTP").body()
        #expect(body == Array("tacit\0pw\0OTP\0".utf8) + [0x34, 0, 0, 0])
    }

    @Test("a length shorter than a header, one past the limit, or one that disagrees with the bytes is refused",
          arguments: [(UInt32(15), SMPPWireError.badLength), (UInt32(16 * 1024 + 1), .oversized), (UInt32(20), .badLength)])
    func badLengths(length: UInt32, error: SMPPWireError) {
        var bytes = SMPPPDU(.enquireLink, sequence: 1).encoded()
        bytes.replaceSubrange(0..<4, with: [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
        #expect(throws: error) { try SMPPPDU.decode(bytes) }
    }

    @Test("a C-octet string without its NUL within the field's size is refused, and so is one cut short")
    func unterminated() {
        var long = SMPPReader(Array("abcdefghijklmnopq".utf8))
        #expect(throws: SMPPWireError.unterminated) { try long.cString(maximum: 16) }
        var short = SMPPReader(Array("abc".utf8))
        #expect(throws: SMPPWireError.truncated) { try short.cString(maximum: 16) }
    }

    @Test("a TLV whose length runs past the body is refused; well-formed TLVs are read by tag")
    func tlvs() throws {
        var bad = SMPPReader([0x04, 0x27, 0x00, 0x05, 0x01])
        #expect(throws: SMPPWireError.badTLV) { try bad.tlvs() }
        var good = SMPPReader([0x04, 0x27, 0x00, 0x01, 0x02, 0x00, 0x1E, 0x00, 0x02, 0x41, 0x00])
        #expect(try good.tlvs() == [0x0427: [2], 0x001E: [0x41, 0]])
    }

    @Test("a deliver_sm round trips through the SMSC's layout, and one cut anywhere is refused")
    func deliver() throws {
        let deliver = SMPPDeliver(sourceAddress: "447400123456", esmClass: 0x04, shortMessage: Array("id:abc stat:DELIVRD".utf8),
                                  tlvs: [0x0427: [2]])
        let body = deliver.body()
        #expect(try SMPPDeliver(body: body) == deliver)
        for cut in [1, 10, 30, body.count - 1] {
            #expect(throws: SMPPWireError.self) { try SMPPDeliver(body: Array(body.prefix(cut))) }
        }
    }

    @Test("a submit_sm asks for a receipt, addresses an international number without its plus, and names an alphanumeric sender as TON 5")
    func submit() throws {
        let submit = SMPPSubmit(sourceAddress: "Acme", to: "+447400123456", text: "Your code is 123456")
        var reader = SMPPReader(submit.body())
        #expect(try reader.cString(maximum: 6) == "")
        #expect(try [reader.u8(), reader.u8()] == [5, 0])
        #expect(try reader.cString(maximum: 21) == "Acme")
        #expect(try [reader.u8(), reader.u8()] == [1, 1])
        #expect(try reader.cString(maximum: 21) == "447400123456")
        #expect(try [reader.u8(), reader.u8(), reader.u8()] == [0, 0, 0])
        _ = try [reader.cString(maximum: 17), reader.cString(maximum: 17)]
        #expect(try [reader.u8(), reader.u8(), reader.u8(), reader.u8()] == [1, 0, 0, 0])
        let length = Int(try reader.u8())
        #expect(String(decoding: try reader.take(length), as: UTF8.self) == "Your code is 123456")
        #expect(reader.isAtEnd)
        #expect(SMPPSubmit(sourceAddress: "+15005550006", to: "+1", text: "x").sourceTonNpi == (1, 1))
    }

    @Test("a text longer than one message goes whole in message_payload with sm_length 0")
    func payload() throws {
        let text = String(repeating: "7", count: 200)
        let body = SMPPSubmit(sourceAddress: "Acme", to: "+447400123456", text: text).body()
        let tail = Array(body.suffix(4 + 200))
        #expect(Array(tail.prefix(4)) == [0x04, 0x24, 0x00, 200])
        #expect(body[body.count - 205] == 0, "sm_length")
    }

    @Test("a submit_sm_resp's message id is read, and one without its NUL is refused")
    func submitResp() throws {
        #expect(try SMPPSubmit.responseMessageId(Array("msg-0001\0".utf8)) == "msg-0001")
        #expect(throws: SMPPWireError.self) { try SMPPSubmit.responseMessageId(Array("msg".utf8)) }
    }
}
