/// One result row, read by column name.
///
/// ```swift
/// let id = try row["id", as: String.self]
/// let sent = try row.optionalInt("sent_at")
/// ```
/// Getters throw ``SQLiteError`` when the column is missing or holds another
/// type; the optional variants return nil for NULL.
public struct Row: Sendable, Hashable {
    /// Column name to position, shared by every row of a result.
    let columnIndex: [String: Int]
    /// The values in column order.
    public let values: [SQLiteValue]

    init(columnIndex: [String: Int], values: [SQLiteValue]) {
        self.columnIndex = columnIndex
        self.values = values
    }

    /// The column names, in no particular order.
    public var columnNames: [String] { Array(columnIndex.keys) }

    /// The raw value of a column.
    public func value(_ column: String) throws(SQLiteError) -> SQLiteValue {
        guard let position = columnIndex[column] else { throw .noSuchColumn(column) }
        return values[position]
    }

    /// A column converted to `type`; use an Optional type to read NULL as nil.
    public subscript<Value: SQLiteValueConvertible>(_ column: String, as type: Value.Type) -> Value {
        get throws(SQLiteError) {
            guard let converted = Value(sqliteValue: try value(column)) else {
                throw .typeMismatch(column: column, expected: type)
            }
            return converted
        }
    }

    public func string(_ column: String) throws(SQLiteError) -> String { try self[column, as: String.self] }
    public func int(_ column: String) throws(SQLiteError) -> Int { try self[column, as: Int.self] }
    public func int64(_ column: String) throws(SQLiteError) -> Int64 { try self[column, as: Int64.self] }
    public func double(_ column: String) throws(SQLiteError) -> Double { try self[column, as: Double.self] }
    public func bool(_ column: String) throws(SQLiteError) -> Bool { try self[column, as: Bool.self] }
    public func blob(_ column: String) throws(SQLiteError) -> [UInt8] { try self[column, as: [UInt8].self] }

    public func optionalString(_ column: String) throws(SQLiteError) -> String? { try self[column, as: String?.self] }
    public func optionalInt(_ column: String) throws(SQLiteError) -> Int? { try self[column, as: Int?.self] }
    public func optionalInt64(_ column: String) throws(SQLiteError) -> Int64? { try self[column, as: Int64?.self] }
    public func optionalDouble(_ column: String) throws(SQLiteError) -> Double? { try self[column, as: Double?.self] }
    public func optionalBool(_ column: String) throws(SQLiteError) -> Bool? { try self[column, as: Bool?.self] }
    public func optionalBlob(_ column: String) throws(SQLiteError) -> [UInt8]? { try self[column, as: [UInt8]?.self] }
}
