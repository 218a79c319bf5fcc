/// An SQL statement whose interpolated values are bound as parameters.
///
/// ```swift
/// let sql: SQL = "SELECT * FROM verifications WHERE id = \(id) AND status = \(status)"
/// // text: "SELECT * FROM verifications WHERE id = ? AND status = ?", bindings: [id, status]
/// ```
/// A value can never become SQL text: only `\(raw:)` inserts text, and it is
/// meant for identifiers that the code itself chooses, never for input.
public struct SQL: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The statement text, with a `?` for each binding.
    public private(set) var text: String
    /// The values for the `?` placeholders, in order.
    public private(set) var bindings: [SQLiteValue]

    public init(stringLiteral value: String) {
        text = value
        bindings = []
    }

    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
        bindings = stringInterpolation.bindings
    }

    /// Joins two fragments, keeping their bindings in order.
    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        var joined = lhs
        joined.text += rhs.text
        joined.bindings += rhs.bindings
        return joined
    }

    /// Builds an ``SQL`` from literal text and interpolations.
    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        var bindings: [SQLiteValue] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount)
            bindings.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Binds `value` as a parameter (`?`).
        public mutating func appendInterpolation<Value: SQLiteValueConvertible>(_ value: Value) {
            text += "?"
            bindings.append(value.sqliteValue)
        }

        /// Binds an optional value, NULL when absent. Spelled out so that the
        /// compiler knows an optional here is intended.
        public mutating func appendInterpolation<Wrapped: SQLiteValueConvertible>(_ value: Wrapped?) {
            text += "?"
            bindings.append(value.sqliteValue)
        }

        /// Binds each value, comma-separated, for `IN (...)`. An empty list binds
        /// a single NULL, so `x IN (NULL)` matches nothing instead of failing to parse.
        public mutating func appendInterpolation<Value: SQLiteValueConvertible>(list values: [Value]) {
            guard !values.isEmpty else { return appendInterpolation(SQLiteValue.null) }
            // Appended in place, with no array of "?" joined into a string of its own.
            text += "?"
            bindings.append(values[0].sqliteValue)
            for value in values.dropFirst() {
                text += ", ?"
                bindings.append(value.sqliteValue)
            }
        }

        /// Inserts another fragment with its bindings.
        public mutating func appendInterpolation(_ fragment: SQL) {
            text += fragment.text
            bindings += fragment.bindings
        }

        /// Inserts `text` verbatim: for identifiers chosen by code, never for values.
        public mutating func appendInterpolation(raw text: String) {
            self.text += text
        }
    }
}
