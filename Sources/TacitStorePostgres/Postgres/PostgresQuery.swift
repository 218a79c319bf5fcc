/// A statement whose interpolated values travel as parameters (`$1`, `$2`, …), never as
/// SQL text: the PostgreSQL counterpart of the SQLite store's `SQL`.
///
/// ```swift
/// let query: PostgresQuery = "SELECT * FROM verifications WHERE id = \(id)"
/// // text: "SELECT * FROM verifications WHERE id = $1", parameters: [id]
/// ```
/// Fragments can be interpolated into each other; their placeholders are numbered when
/// the whole statement is rendered, so a fragment never needs to know where it lands.
public struct PostgresQuery: Sendable, ExpressibleByStringInterpolation {
    enum Part: Sendable {
        case text(String)
        case parameter(PostgresValue)
    }

    private(set) var parts: [Part]

    public init(stringLiteral value: String) {
        parts = [.text(value)]
    }

    public init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// The statement text with numbered placeholders, and the values in their order.
    public var rendered: (text: String, parameters: [PostgresValue]) {
        var text = ""
        var parameters: [PostgresValue] = []
        for part in parts {
            switch part {
            case .text(let literal): text += literal
            case .parameter(let value):
                parameters.append(value)
                text += "$\(parameters.count)"
            }
        }
        return (text, parameters)
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(interpolationCount * 2 + 1)
        }

        public mutating func appendLiteral(_ literal: String) {
            parts.append(.text(literal))
        }

        /// Binds `value` as a parameter.
        public mutating func appendInterpolation<Value: PostgresValueConvertible>(_ value: Value) {
            parts.append(.parameter(value.postgresValue))
        }

        /// Binds an optional value, NULL when absent.
        public mutating func appendInterpolation<Wrapped: PostgresValueConvertible>(_ value: Wrapped?) {
            parts.append(.parameter(value.map(\.postgresValue) ?? .null))
        }

        /// Binds the strings as one `text[]` parameter, for `= ANY(…)`: the statement's
        /// text is the same however many there are, so it is prepared once.
        public mutating func appendInterpolation(array values: [String]) {
            parts.append(.parameter(.text(PostgresValue.arrayLiteral(values))))
            parts.append(.text("::text[]"))
        }

        /// Inserts another fragment with its parameters.
        public mutating func appendInterpolation(_ fragment: PostgresQuery) {
            parts += fragment.parts
        }
    }
}

extension PostgresQuery {
    /// The fragments one after another with `separator` between them, each keeping its
    /// parameters: a statement with one row or lookup per element.
    init(joining fragments: [PostgresQuery], separator: String) {
        parts = []
        for (position, fragment) in fragments.enumerated() {
            if position > 0 { parts.append(.text(separator)) }
            parts += fragment.parts
        }
    }
}
