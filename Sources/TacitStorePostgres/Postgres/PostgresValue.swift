import Foundation

/// A parameter as it is sent: libpq's text format, or NULL. Byte arrays go as `bytea`
/// hex (`\x…`), doubles in Swift's shortest form that reads back to the same bits.
public enum PostgresValue: Sendable, Equatable {
    case null
    case text(String)

    static let hexDigits = Array("0123456789abcdef".utf8)

    static func hex(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        out.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A `text[]` literal: every element quoted, so no value is read as syntax.
    static func arrayLiteral(_ values: [String]) -> String {
        let quoted = values.map { value in
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }
}

/// A Swift value that can be bound as a parameter.
public protocol PostgresValueConvertible: Sendable {
    var postgresValue: PostgresValue { get }
}

extension String: PostgresValueConvertible {
    public var postgresValue: PostgresValue { .text(self) }
}

extension Int: PostgresValueConvertible {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int64: PostgresValueConvertible {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Double: PostgresValueConvertible {
    public var postgresValue: PostgresValue { .text("\(self)") }
}

extension Bool: PostgresValueConvertible {
    public var postgresValue: PostgresValue { .text(self ? "true" : "false") }
}

extension Array: PostgresValueConvertible where Element == UInt8 {
    public var postgresValue: PostgresValue { .text(PostgresValue.hex(self)) }
}
