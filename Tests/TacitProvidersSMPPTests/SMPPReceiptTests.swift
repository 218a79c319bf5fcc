import Foundation
import Testing
import TacitServer
@testable import TacitProvidersSMPP

/// Reading a delivery receipt and matching it to a message this process sent.
@Suite("SMPP delivery receipts")
struct SMPPReceiptTests {
    static func deliver(_ text: String, from: String = "447400123456", esmClass: UInt8 = 0x04,
                        tlvs: [UInt16: [UInt8]] = [:]) -> SMPPDeliver {
        SMPPDeliver(sourceAddress: from, esmClass: esmClass, shortMessage: Array(text.utf8), tlvs: tlvs)
    }

    @Test("the Appendix B text gives the id, the state and a non-zero error code; text after text: is not read",
          arguments: [("stat:DELIVRD err:000", "DELIVRD", nil, ProviderReceipt.Outcome.delivered),
                      ("stat:UNDELIV err:021", "UNDELIV", "021", .failed), ("stat:REJECTD err:001", "REJECTD", "001", .failed),
                      ("stat:EXPIRED err:000", "EXPIRED", nil, .failed), ("stat:ENROUTE err:000", "ENROUTE", nil, .progress)] as [(String, String, String?, ProviderReceipt.Outcome)])
    func text(fields: String, state: String, error: String?, outcome: ProviderReceipt.Outcome) throws {
        let receipt = try #require(SMPPReceiptText(Self.deliver("id:abc-1 sub:001 dlvrd:001 submit date:2601010000 done date:2601010000 \(fields) text:id:zzz stat:DELIVRD")))
        #expect(receipt.messageId == "abc-1")
        #expect(receipt.state == state)
        #expect(receipt.errorCode == error)
        #expect(receipt.outcome == outcome)
    }

    @Test("the receipted_message_id and message_state TLVs win over the text")
    func tlvs() throws {
        let receipt = try #require(SMPPReceiptText(Self.deliver("id:other stat:DELIVRD", tlvs: [0x001E: Array("tlv-id\0".utf8), 0x0427: [5]])))
        #expect((receipt.messageId, receipt.state, receipt.outcome) == ("tlv-id", "UNDELIV", .failed))
    }

    @Test("a receipt without an id or a state is not one")
    func incomplete() {
        #expect(SMPPReceiptText(Self.deliver("stat:DELIVRD")) == nil)
        #expect(SMPPReceiptText(Self.deliver("id:abc")) == nil)
    }

    static func client() -> SMPPClient {
        let client = SMPPClient(settings: SMPPSettings(host: "127.0.0.1", systemId: "t", password: "p", sourceAddress: "Acme"), log: { _ in })
        client.sent.record("msg-1", .init(verificationId: "vf_1", step: 0, destination: "447400123456"))
        return client
    }

    @Test("a receipt for an id this process never sent, one from another number, and a message that is not a receipt are dropped")
    func unmatched() {
        let client = Self.client()
        #expect(client.receipt(Self.deliver("id:msg-9 stat:UNDELIV")) == nil)
        #expect(client.receipt(Self.deliver("id:msg-1 stat:UNDELIV", from: "447400999999")) == nil)
        #expect(client.receipt(Self.deliver("id:msg-1 stat:UNDELIV", esmClass: 0)) == nil)
        #expect(client.receipt(Self.deliver("id:msg-1 stat:UNDELIV"))?.outcome == .failed)
    }

    @Test("after a final receipt the message is forgotten, so a repeated one changes nothing; progress keeps it")
    func final() {
        let client = Self.client()
        #expect(client.receipt(Self.deliver("id:msg-1 stat:ENROUTE"))?.outcome == .progress)
        #expect(client.receipt(Self.deliver("id:msg-1 stat:DELIVRD"))?.outcome == .delivered)
        #expect(client.receipt(Self.deliver("id:msg-1 stat:DELIVRD")) == nil)
    }

    @Test("the sent-message book forgets the oldest ids past its capacity")
    func capacity() {
        let book = SMPPSentMessages(capacity: 2)
        for n in 1...3 { book.record("m\(n)", .init(verificationId: "vf", step: 0, destination: "1")) }
        #expect(book.entry("m1") == nil)
        #expect(book.entry("m3") != nil)
    }
}
