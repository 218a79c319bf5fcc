import Foundation

/// Writes JSON by hand for the hot paths (every stored and streamed event), where
/// Foundation's encoder costs more than the rest of a request. Keys come out sorted,
/// so the same value always gives the same bytes.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    public mutating func value(_ value: JSONValue) {
        switch value {
        case .string(let text): string(text)
        case .number(let number): self.number(number)
        case .bool(let flag): raw(flag ? "true" : "false")
        case .null: raw("null")
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            object(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    /// An object with members in the given order.
    public mutating func object(_ members: [(String, JSONValue)]) {
        bytes.append(UInt8(ascii: "{"))
        for (index, member) in members.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(member.0)
            bytes.append(UInt8(ascii: ":"))
            value(member.1)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func number(_ number: Double) {
        if number.rounded() == number, abs(number) < 1e15 { integer(Int64(number)) } else { raw(String(number)) }
    }

    /// Digits written straight into the buffer, without a String in between.
    private mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        bytes.appendDigits(value.magnitude)
    }

    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Runs that need no escaping (most strings are one run) are copied whole.
            var start = 0
            for (index, byte) in utf8.enumerated()
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        default:
            let hex = String(byte, radix: 16)
            raw("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
        }
    }

    public mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }
}

extension TimelineEvent {
    /// The event as docs/events.md's JSON, keys sorted (written member by member: this runs for
    /// every event stored and streamed).
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writer.raw(#"{"at":"#)
        writer.string(Timestamp.format(at))
        writer.raw(#","channel":"#)
        if let channel { writer.string(channel.rawValue) } else { writer.raw("null") }
        writer.raw(#","data":"#)
        writer.value(.object(data))
        writer.raw(#","label":"#)
        writer.string(label)
        writer.raw(#","note":"#)
        writer.string(note)
        writer.raw(#","outcome":"#)
        writer.string(outcome.rawValue)
        writer.raw(#","request_id":"#)
        writer.string(requestId)
        writer.raw(#","seq":"#)
        writer.number(Double(seq))
        writer.raw(#","source":"#)
        writer.string(source.rawValue)
        writer.raw("}")
        return writer.bytes
    }
}
