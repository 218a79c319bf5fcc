import CSQLite

/// A failed SQLite call. The message comes from SQLite and names tables,
/// columns and constraints, never bound values.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code, e.g. `SQLITE_CONSTRAINT` (19) or `SQLITE_BUSY` (5).
    public let code: Int32
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_UNIQUE` (2067).
    public let extendedCode: Int32
    /// What went wrong, in SQLite's words or this wrapper's.
    public let message: String

    /// Makes an error from a result code and a message.
    public init(code: Int32, extendedCode: Int32? = nil, message: String) {
        self.code = code & 0xFF
        self.extendedCode = extendedCode ?? code
        self.message = message
    }

    /// Reads the last error of a connection after a call returned `resultCode`.
    init(resultCode: Int32, connection handle: OpaquePointer?) {
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? resultCode
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(resultCode))
        // The connection's last error can belong to an older call; trust the code we were given.
        self.init(code: resultCode, extendedCode: extended & 0xFF == resultCode & 0xFF ? extended : resultCode,
                  message: message)
    }

    public var description: String {
        "SQLite error \(extendedCode) (\(String(cString: sqlite3_errstr(code)))): \(message)"
    }

    /// Any constraint failure: unique, primary key, foreign key, not null, check.
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }
    /// A UNIQUE or PRIMARY KEY constraint failure: the row already exists.
    public var isUniqueViolation: Bool {
        extendedCode == Self.constraintUnique || extendedCode == Self.constraintPrimaryKey
    }
    /// Another connection held a lock for longer than the busy timeout.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    // Extended codes are C macros built with shifts, which Swift doesn't import.
    static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)
    static let constraintPrimaryKey: Int32 = SQLITE_CONSTRAINT | (6 << 8)

    /// The connection was closed before the call.
    static let closed = SQLiteError(code: SQLITE_MISUSE, message: "The database connection is closed.")

    /// A row has no column of that name.
    static func noSuchColumn(_ name: String) -> SQLiteError {
        SQLiteError(code: SQLITE_RANGE, message: "The row has no column named \(name).")
    }

    /// A column holds a value of another type than the one asked for.
    static func typeMismatch(column: String, expected: Any.Type) -> SQLiteError {
        SQLiteError(code: SQLITE_MISMATCH, message: "Column \(column) does not hold a value of type \(expected).")
    }
}
