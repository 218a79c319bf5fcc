import CSQLite

/// One prepared statement; owns its `sqlite3_stmt*` and finalizes it in `deinit`.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    /// Column names, read once: they don't change between executions.
    let columnIndex: [String: Int]
    let columnCount: Int
    /// True while a caller is stepping it, so a nested use of the same SQL prepares its own.
    var inUse = false

    init(connection: OpaquePointer, sql: String, persistent: Bool) throws(SQLiteError) {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        // The tail points into the C string, so it is read while that string is alive.
        let (status, trailing) = sql.withCString { text -> (Int32, Bool) in
            var tail: UnsafePointer<CChar>?
            let status = sqlite3_prepare_v3(connection, text, -1, flags, &statement, &tail)
            let trailing = tail.map { !String(cString: $0).allSatisfy { $0.isWhitespace || $0 == ";" } } ?? false
            return (status, trailing)
        }
        guard status == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(resultCode: status, connection: connection)
        }
        // A second statement after the first would be silently ignored; refuse it.
        if trailing {
            sqlite3_finalize(statement)
            throw SQLiteError(code: SQLITE_MISUSE, message: "Only one SQL statement may be run at a time.")
        }
        self.handle = statement
        self.connection = connection
        self.columnCount = Int(sqlite3_column_count(statement))
        var index: [String: Int] = [:]
        for column in 0..<columnCount {
            let name = String(cString: sqlite3_column_name(statement, Int32(column)))
            if index[name] == nil { index[name] = column }
        }
        self.columnIndex = index
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values`, steps to the end and returns every row.
    func run(_ values: [SQLiteValue]) throws(SQLiteError) -> [Row] {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try bind(values)
        var rows: [Row] = []
        while true {
            let status = sqlite3_step(handle)
            switch status {
            case SQLITE_ROW: rows.append(Row(columnIndex: columnIndex, values: currentValues()))
            case SQLITE_DONE: return rows
            default: throw SQLiteError(resultCode: status, connection: connection)
            }
        }
    }

    private func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == values.count else {
            throw SQLiteError(code: SQLITE_RANGE,
                              message: "The statement has \(expected) parameters but \(values.count) values.")
        }
        for (offset, value) in values.enumerated() {
            let status = bind(value, at: Int32(offset + 1))
            guard status == SQLITE_OK else { throw SQLiteError(resultCode: status, connection: connection) }
        }
    }

    private func bind(_ value: SQLiteValue, at index: Int32) -> Int32 {
        switch value {
        case .null: return sqlite3_bind_null(handle, index)
        case .integer(let number): return sqlite3_bind_int64(handle, index, number)
        case .real(let number): return sqlite3_bind_double(handle, index, number)
        case .text(let string):
            // Pass the UTF-8 length so text with an embedded NUL is bound whole.
            let length = Int32(string.utf8.count)
            return string.withCString { sqlite3_bind_text(handle, index, $0, length, csqlite_transient()) }
        case .blob(let bytes):
            // A NULL pointer would bind NULL, not an empty blob.
            guard !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return bytes.withUnsafeBytes {
                sqlite3_bind_blob(handle, index, $0.baseAddress, Int32(bytes.count), csqlite_transient())
            }
        }
    }

    private func currentValues() -> [SQLiteValue] {
        (0..<Int32(columnCount)).map { column in
            switch sqlite3_column_type(handle, column) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
            case SQLITE_TEXT:
                let count = Int(sqlite3_column_bytes(handle, column))
                guard let text = sqlite3_column_text(handle, column) else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(handle, column))
                guard let blob = sqlite3_column_blob(handle, column) else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
            default: return .null
            }
        }
    }
}
