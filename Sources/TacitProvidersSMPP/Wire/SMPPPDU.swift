import Foundation

/// One SMPP 3.4 PDU: the 16-octet header (length, command id, status, sequence number)
/// and the body as octets. Decoding is strict: a length that disagrees with the bytes, or
/// that is shorter than a header or longer than `maximumLength`, is refused.
struct SMPPPDU: Sendable, Equatable {
    /// The SMPP 3.4 command ids Tacit speaks (§5.1.2.1); a response is its request's id with the top bit set.
    enum Command: UInt32, Sendable {
        case genericNack = 0x8000_0000
        case submitSm = 0x0000_0004
        case submitSmResp = 0x8000_0004
        case deliverSm = 0x0000_0005
        case deliverSmResp = 0x8000_0005
        case unbind = 0x0000_0006
        case unbindResp = 0x8000_0006
        case bindTransceiver = 0x0000_0009
        case bindTransceiverResp = 0x8000_0009
        case enquireLink = 0x0000_0015
        case enquireLinkResp = 0x8000_0015
    }

    static let headerLength = 16
    /// Larger than any receipt or response an SMSC sends an ESME: a peer that announces
    /// more is broken or hostile, and the link is closed rather than the memory given.
    static let maximumLength = 16 * 1024

    var commandId: UInt32
    var status: UInt32
    var sequence: UInt32
    var body: [UInt8]

    init(_ command: Command, status: UInt32 = 0, sequence: UInt32, body: [UInt8] = []) {
        self.init(commandId: command.rawValue, status: status, sequence: sequence, body: body)
    }

    init(commandId: UInt32, status: UInt32, sequence: UInt32, body: [UInt8]) {
        self.commandId = commandId
        self.status = status
        self.sequence = sequence
        self.body = body
    }

    var command: Command? { Command(rawValue: commandId) }
    var isResponse: Bool { commandId & 0x8000_0000 != 0 }

    func encoded() -> [UInt8] {
        var writer = SMPPWriter()
        writer.u32(UInt32(Self.headerLength + body.count))
        writer.u32(commandId)
        writer.u32(status)
        writer.u32(sequence)
        writer.bytes(body)
        return writer.output
    }

    /// The command length a header announces, checked against the limits before the body is read.
    static func announcedLength(_ header: [UInt8]) throws(SMPPWireError) -> Int {
        guard header.count >= 4 else { throw .truncated }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard length >= headerLength else { throw .badLength }
        guard length <= maximumLength else { throw .oversized }
        return length
    }

    /// Decodes exactly one PDU from `bytes`, which must be the whole of it.
    static func decode(_ bytes: [UInt8]) throws(SMPPWireError) -> SMPPPDU {
        guard bytes.count >= headerLength else { throw .truncated }
        guard try announcedLength(bytes) == bytes.count else { throw .badLength }
        var reader = SMPPReader(bytes[4...])
        let commandId = try reader.u32()
        let status = try reader.u32()
        let sequence = try reader.u32()
        return SMPPPDU(commandId: commandId, status: status, sequence: sequence, body: Array(bytes[headerLength...]))
    }
}

/// Why bytes from the peer are not a PDU Tacit accepts. Each closes the link.
enum SMPPWireError: Error, Equatable, Sendable {
    case truncated
    case badLength
    case oversized
    /// A C-octet string without its terminating NUL within its maximum length.
    case unterminated
    /// A TLV whose length runs past the body.
    case badTLV
    /// Octets left over after the last field.
    case trailing
}
