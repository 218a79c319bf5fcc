/// One SQLite value, in one of its five storage classes.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift type that can be bound as an SQL parameter and read back from a column.
public protocol SQLiteValueConvertible: Sendable {
    /// The value to bind.
    var sqliteValue: SQLiteValue { get }
    /// Reads a column value, or returns nil when it holds another type.
    init?(sqliteValue: SQLiteValue)
}

extension SQLiteValue: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self }
    public init?(sqliteValue: SQLiteValue) { self = sqliteValue }
}

extension String: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(self) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Int64: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Int: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self.init(value)
    }
}

extension Double: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .real(self) }
    /// Also reads integers: SQLite stores a REAL column's whole numbers as integers.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Bool: SQLiteValueConvertible {
    /// Stored as the integers 0 and 1, SQLite's own convention.
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self = value != 0
    }
}

extension Array: SQLiteValueConvertible where Element == UInt8 {
    public var sqliteValue: SQLiteValue { .blob(self) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .blob(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
    /// NULL reads as `.none`; any other value must convert to `Wrapped`.
    public init?(sqliteValue: SQLiteValue) {
        if case .null = sqliteValue {
            self = .none
            return
        }
        guard let value = Wrapped(sqliteValue: sqliteValue) else { return nil }
        self = .some(value)
    }
}
