/// A failure from libpq or the server, with the SQLSTATE the store maps to its own
/// errors. Server messages can quote the values of a row (a unique violation's detail
/// does), so only the primary message is kept, never the detail, and the store turns
/// this into a `StoreError` before it leaves the store.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The five-character SQLSTATE, or `connection` when libpq could not reach the server.
    public var sqlState: String
    /// The constraint a violation names, when it names one.
    public var constraint: String?
    public var message: String

    public init(sqlState: String, constraint: String? = nil, message: String) {
        self.sqlState = sqlState
        self.constraint = constraint
        self.message = message
    }

    public var isUniqueViolation: Bool { sqlState == "23505" }
    /// A deadlock or a serialisation failure: the transaction can simply run again.
    public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }
    /// The connection broke; the pool opens a new one for the next use.
    public var isConnectionFailure: Bool {
        sqlState == "connection" || sqlState.hasPrefix("08") || sqlState.hasPrefix("57P")
    }

    static func decoding(column: String) -> PostgresError {
        PostgresError(sqlState: "decoding", message: "column \(column) is missing or malformed")
    }

    public var description: String { "PostgreSQL \(sqlState): \(message)" }
}
