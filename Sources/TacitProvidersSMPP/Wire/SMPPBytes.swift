import Foundation

/// Builds a PDU body: big-endian integers, C-octet strings and TLVs (SMPP 3.4 §3.1–3.2).
struct SMPPWriter {
    private(set) var output: [UInt8] = []

    mutating func u8(_ value: UInt8) { output.append(value) }

    mutating func u16(_ value: UInt16) {
        output += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    mutating func u32(_ value: UInt32) {
        output += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    mutating func bytes(_ value: [UInt8]) { output += value }

    /// ASCII text and its NUL; the caller has checked it fits the field.
    mutating func cString(_ value: String) {
        output += Array(value.utf8)
        output.append(0)
    }

    mutating func tlv(_ tag: UInt16, _ value: [UInt8]) {
        u16(tag)
        u16(UInt16(value.count))
        bytes(value)
    }
}

/// Reads a PDU body strictly: every read checks the bytes are there, C-octet strings must
/// end within their field's maximum, and TLVs must end exactly at the body's end.
struct SMPPReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    var isAtEnd: Bool { bytes.isEmpty }

    mutating func u8() throws(SMPPWireError) -> UInt8 {
        guard let first = bytes.first else { throw .truncated }
        bytes = bytes.dropFirst()
        return first
    }

    mutating func u16() throws(SMPPWireError) -> UInt16 {
        UInt16(try u8()) << 8 | UInt16(try u8())
    }

    mutating func u32() throws(SMPPWireError) -> UInt32 {
        UInt32(try u16()) << 16 | UInt32(try u16())
    }

    mutating func take(_ count: Int) throws(SMPPWireError) -> [UInt8] {
        guard bytes.count >= count else { throw .truncated }
        defer { bytes = bytes.dropFirst(count) }
        return Array(bytes.prefix(count))
    }

    /// A C-octet string of at most `maximum` octets counting its NUL.
    mutating func cString(maximum: Int) throws(SMPPWireError) -> String {
        guard let end = bytes.prefix(maximum).firstIndex(of: 0) else {
            throw bytes.count < maximum ? .truncated : .unterminated
        }
        let text = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
        bytes = bytes[(end + 1)...]
        return text
    }

    /// The optional parameters that end a body, by tag (a repeated tag keeps its first value).
    mutating func tlvs() throws(SMPPWireError) -> [UInt16: [UInt8]] {
        var found: [UInt16: [UInt8]] = [:]
        while !isAtEnd {
            guard bytes.count >= 4 else { throw .badTLV }
            let tag = try u16()
            let length = Int(try u16())
            guard bytes.count >= length else { throw .badTLV }
            let value = try take(length)
            if found[tag] == nil { found[tag] = value }
        }
        return found
    }
}
