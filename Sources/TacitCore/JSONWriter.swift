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
        if number.rounded() == number, abs(number) < 1e15 { raw(String(Int64(number))) } else { raw(String(number)) }
    }

    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escaping: copied whole, not byte by byte.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                raw("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }
}

extension TimelineEvent {
    /// The event as SPEC §4 JSON, keys sorted.
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writer.object([
            ("at", .string(Timestamp.format(at))),
            ("channel", channel.map { .string($0.rawValue) } ?? .null),
            ("data", .object(data)),
            ("label", .string(label)),
            ("note", .string(note)),
            ("outcome", .string(outcome.rawValue)),
            ("request_id", .string(requestId)),
            ("seq", .number(Double(seq))),
            ("source", .string(source.rawValue)),
        ])
        return writer.bytes
    }
}
