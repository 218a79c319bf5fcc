import Foundation

/// The fields of a `deliver_sm` (SMPP 3.4 §4.6.1) that Tacit reads: who it is from (for a
/// receipt, the number the message went to), the ESM class that marks a delivery receipt,
/// the text and the TLVs. Every field is read, in order, so a short or overlong body is refused.
struct SMPPDeliver: Equatable {
    /// `esm_class` bits 2–5 equal to 0001: an SMSC delivery receipt (§5.2.12).
    static let receiptClass: UInt8 = 0x04
    static let receiptedMessageIdTag: UInt16 = 0x001E
    static let messageStateTag: UInt16 = 0x0427
    static let networkErrorCodeTag: UInt16 = 0x0423

    var sourceAddress: String
    var esmClass: UInt8
    var dataCoding: UInt8
    var shortMessage: [UInt8]
    var tlvs: [UInt16: [UInt8]]

    var isReceipt: Bool { esmClass & 0x3C == Self.receiptClass }

    init(sourceAddress: String, esmClass: UInt8, dataCoding: UInt8 = 0, shortMessage: [UInt8],
         tlvs: [UInt16: [UInt8]] = [:]) {
        self.sourceAddress = sourceAddress
        self.esmClass = esmClass
        self.dataCoding = dataCoding
        self.shortMessage = shortMessage
        self.tlvs = tlvs
    }

    init(body: [UInt8]) throws(SMPPWireError) {
        var reader = SMPPReader(body)
        _ = try reader.cString(maximum: 6)  // service_type
        _ = try reader.u8()  // source_addr_ton
        _ = try reader.u8()  // source_addr_npi
        sourceAddress = try reader.cString(maximum: SMPPSubmit.addressLimit)
        _ = try reader.u8()  // dest_addr_ton
        _ = try reader.u8()  // dest_addr_npi
        _ = try reader.cString(maximum: SMPPSubmit.addressLimit)
        esmClass = try reader.u8()
        _ = try reader.u8()  // protocol_id
        _ = try reader.u8()  // priority_flag
        _ = try reader.cString(maximum: 17)  // schedule_delivery_time
        _ = try reader.cString(maximum: 17)  // validity_period
        _ = try reader.u8()  // registered_delivery
        _ = try reader.u8()  // replace_if_present_flag
        dataCoding = try reader.u8()
        _ = try reader.u8()  // sm_default_msg_id
        let length = Int(try reader.u8())
        shortMessage = try reader.take(length)
        tlvs = try reader.tlvs()
    }

    /// The body as an SMSC writes it, for tests and the loopback SMSC.
    func body() -> [UInt8] {
        var writer = SMPPWriter()
        writer.cString("")
        writer.u8(1)
        writer.u8(1)
        writer.cString(sourceAddress)
        writer.u8(5)
        writer.u8(0)
        writer.cString("Tacit")
        writer.u8(esmClass)
        [0, 0].forEach { writer.u8($0) }
        writer.cString("")
        writer.cString("")
        [0, 0, dataCoding, 0].forEach { writer.u8($0) }
        writer.u8(UInt8(shortMessage.count))
        writer.bytes(shortMessage)
        for (tag, value) in tlvs.sorted(by: { $0.key < $1.key }) { writer.tlv(tag, value) }
        return writer.output
    }
}
