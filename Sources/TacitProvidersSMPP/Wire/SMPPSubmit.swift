import Foundation

/// `submit_sm` (SMPP 3.4 §4.4.1) for one code: to an international number, with a
/// delivery receipt asked for (`registered_delivery` 1). A text that fits one message goes
/// in `short_message`; a longer one goes whole in the `message_payload` TLV and the SMSC
/// splits it, so the message has one id and one receipt.
struct SMPPSubmit: Equatable {
    static let addressLimit = 21
    static let messagePayloadTag: UInt16 = 0x0424

    var sourceAddress: String
    /// Digits, without `+`.
    var destination: String
    var text: SMPPText

    init(sourceAddress: String, to number: String, text: String) {
        self.sourceAddress = sourceAddress.hasPrefix("+") ? String(sourceAddress.dropFirst()) : sourceAddress
        self.destination = number.hasPrefix("+") ? String(number.dropFirst()) : number
        self.text = SMPPText(text)
    }

    /// An alphanumeric sender ID is TON 5 (alphanumeric), NPI 0; a number is TON 1
    /// (international), NPI 1 (E.164), written without its `+`.
    var sourceTonNpi: (UInt8, UInt8) {
        sourceAddress.allSatisfy { $0.isASCII && $0.isNumber } ? (1, 1) : (5, 0)
    }

    func body() -> [UInt8] {
        var writer = SMPPWriter()
        writer.cString("")  // service_type: the SMSC's default
        writer.u8(sourceTonNpi.0)
        writer.u8(sourceTonNpi.1)
        writer.cString(sourceAddress)
        writer.u8(1)  // dest_addr_ton: international
        writer.u8(1)  // dest_addr_npi: E.164
        writer.cString(destination)
        writer.u8(0)  // esm_class: default mode, no UDH
        writer.u8(0)  // protocol_id
        writer.u8(0)  // priority_flag
        writer.cString("")  // schedule_delivery_time: now
        writer.cString("")  // validity_period: the SMSC's default
        writer.u8(1)  // registered_delivery: a receipt on success or failure
        writer.u8(0)  // replace_if_present_flag
        writer.u8(text.dataCoding)
        writer.u8(0)  // sm_default_msg_id
        if text.fitsOneMessage {
            writer.u8(UInt8(text.octets.count))
            writer.bytes(text.octets)
        } else {
            writer.u8(0)
            writer.tlv(Self.messagePayloadTag, text.octets)
        }
        return writer.output
    }

    /// The `message_id` of a `submit_sm_resp` (a C-octet string of up to 65 octets).
    static func responseMessageId(_ body: [UInt8]) throws(SMPPWireError) -> String {
        var reader = SMPPReader(body)
        let id = try reader.cString(maximum: 65)
        _ = try reader.tlvs()
        return id
    }
}
