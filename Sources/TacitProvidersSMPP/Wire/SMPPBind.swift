import Foundation

/// `bind_transceiver` (SMPP 3.4 §4.1.5): one session that both submits messages and takes
/// `deliver_sm` receipts. The field limits count the terminating NUL.
struct SMPPBind: Equatable {
    static let systemIdLimit = 16
    static let passwordLimit = 9
    static let systemTypeLimit = 13
    /// SMPP 3.4.
    static let interfaceVersion: UInt8 = 0x34

    var systemId: String
    var password: String
    var systemType: String

    func body() -> [UInt8] {
        var writer = SMPPWriter()
        writer.cString(systemId)
        writer.cString(password)
        writer.cString(systemType)
        writer.u8(Self.interfaceVersion)
        writer.u8(0)  // addr_ton: unknown
        writer.u8(0)  // addr_npi: unknown
        writer.cString("")  // address_range: any
        return writer.output
    }

    /// The SMSC's `system_id` from a `bind_transceiver_resp`; TLVs after it are ignored.
    /// A refused bind may carry no body at all.
    static func responseSystemId(_ body: [UInt8]) throws(SMPPWireError) -> String {
        guard !body.isEmpty else { return "" }
        var reader = SMPPReader(body)
        let systemId = try reader.cString(maximum: systemIdLimit)
        _ = try reader.tlvs()
        return systemId
    }
}
