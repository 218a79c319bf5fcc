import Foundation

/// A parameter as it is sent: libpq's text format, bytes in binary format (a `bytea`
/// parameter as it is, not spelled out in hex for the server to read back), or NULL.
/// Doubles go in Swift's shortest form that reads back to the same bits.
public enum PostgresValue: Sendable, Equatable {
    case null
    case text(String)
    case bytes([UInt8])

    /// A `text[]` literal: every element quoted, so no value is read as syntax.
    static func arrayLiteral(_ values: [String]) -> String {
        let quoted = values.map { value in
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"") + "\""
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
    public var postgresValue: PostgresValue { .bytes(self) }
}
