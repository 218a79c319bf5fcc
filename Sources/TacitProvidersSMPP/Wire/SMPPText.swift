import Foundation

/// A message's text as SMPP carries it: GSM 03.38 7-bit (`data_coding` 0, one septet per
/// octet, unpacked, as SMPP sends the default alphabet) when every character is in the
/// default alphabet or its extension table; otherwise UCS-2 (`data_coding` 8, UTF-16BE).
struct SMPPText: Equatable {
    static let gsmDataCoding: UInt8 = 0
    static let ucs2DataCoding: UInt8 = 8

    var dataCoding: UInt8
    var octets: [UInt8]

    init(_ text: String) {
        if let septets = GSM7.encode(text) {
            dataCoding = Self.gsmDataCoding
            octets = septets
        } else {
            dataCoding = Self.ucs2DataCoding
            octets = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
    }

    /// One SMS holds 160 septets (an escaped character takes two) or 140 octets of UCS-2
    /// (70 UTF-16 units); anything longer goes in `message_payload`.
    var fitsOneMessage: Bool {
        dataCoding == Self.gsmDataCoding ? octets.count <= 160 : octets.count <= 140
    }
}
