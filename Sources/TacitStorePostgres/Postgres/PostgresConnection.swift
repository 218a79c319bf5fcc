import Foundation
import CPostgres

/// One libpq connection. Every call blocks, so the pool runs them on the connection's
/// own serial queue, never on Swift's cooperative threads. Statements are prepared on
/// first use and kept by their text, so each runs as `PQexecPrepared` from then on.
/// A broken connection is opened again on its next use; the statements go with it.
/// In a transaction, statements are pipelined (see `queue`).
// @unchecked Sendable: the pool hands a connection to one body at a time, on its queue.
public final class PostgresConnection: @unchecked Sendable {
    private let conninfo: String
    private var handle: OpaquePointer?
    private var prepared: [String: String] = [:]
    /// Statements waiting for the next round trip (`queue`), whether a transaction is open,
    /// and whether its BEGIN is still to be sent (with the first round trip).
    var queued: [PostgresQuery] = []
    var inTransaction = false
    var beginPending = false

    init(conninfo: String) {
        self.conninfo = conninfo
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Opens the connection unless it is open and healthy.
    func open() throws {
        if let handle, PQstatus(handle) == CONNECTION_OK { return }
        if let handle { PQfinish(handle) }
        handle = nil
        prepared = [:]
        guard let opened = PQconnectdb(conninfo) else {
            throw PostgresError(sqlState: "connection", message: "out of memory")
        }
        guard PQstatus(opened) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(opened)).trimmingSuffix()
            PQfinish(opened)
            throw PostgresError(sqlState: "connection", message: message)
        }
        // Notices (a CREATE … IF NOT EXISTS that found the table) would go to stderr.
        PQsetNoticeProcessor(opened, { _, _ in }, nil)
        handle = opened
    }

    /// The rows a statement returns.
    @discardableResult
    public func query(_ query: PostgresQuery) throws -> [PostgresRow] {
        try run(query).rows
    }

    /// Runs a statement; returns how many rows it changed.
    @discardableResult
    public func execute(_ query: PostgresQuery) throws -> Int {
        try run(query).affected
    }

    /// Runs a fixed script of `;`-separated statements with no values in it: migrations
    /// and transaction control, never anything built from input.
    public func script(_ sql: String) throws {
        if !queued.isEmpty || beginPending { _ = try flush(then: nil) }
        let handle = try connected()
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        _ = try Self.check(result, handle)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// BEGIN goes with the body's first round trip and COMMIT with its queued statements.
    /// A body that only queued one statement sends it alone: PostgreSQL runs a statement
    /// outside a transaction block as a transaction of its own, so BEGIN and COMMIT would
    /// be two more statements for nothing.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        queued = []
        beginPending = true
        inTransaction = true
        defer { inTransaction = false }
        do {
            let value = try body()
            if beginPending && queued.count <= 1 {
                beginPending = false
                if !queued.isEmpty { _ = try flush(then: nil) }
            } else {
                _ = try flush(then: "COMMIT")
            }
            return value
        } catch {
            queued = []
            beginPending = false
            try? script("ROLLBACK")
            throw error
        }
    }

    /// `transaction(body)`, run again after a deadlock or a serialisation failure, a few
    /// times: `body` must do nothing outside the transaction.
    public func retryingTransaction<T>(_ body: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try transaction(body)
            } catch let error as PostgresError where error.isRetryable && attempt < 3 {
                attempt += 1
            }
        }
    }

    /// Drops a connection left in a state no statement can follow; the next use opens it again.
    func close() {
        if let handle { PQfinish(handle) }
        handle = nil
        prepared = [:]
        queued = []
        beginPending = false
    }

    func connected() throws -> OpaquePointer {
        guard let handle else { throw PostgresError(sqlState: "connection", message: "the connection is not open") }
        return handle
    }

    private func run(_ query: PostgresQuery) throws -> (rows: [PostgresRow], affected: Int) {
        if !queued.isEmpty || beginPending { return try flush(then: query) }
        let handle = try connected()
        let (text, parameters) = query.rendered
        let name = try statement(text, parameterCount: parameters.count, handle)
        let result = Self.withValues(parameters) { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(values.count), values, lengths, formats, 0)
        }
        defer { PQclear(result) }
        return try Self.check(result, handle)
    }

    /// The name `text` is prepared under on this connection, preparing it the first time.
    func statement(_ text: String, parameterCount: Int, _ handle: OpaquePointer) throws -> String {
        if let name = prepared[text] { return name }
        let name = "tacit_\(prepared.count)"
        let result = PQprepare(handle, name, text, Int32(parameterCount), nil)
        defer { PQclear(result) }
        _ = try Self.check(result, handle)
        prepared[text] = name
        return name
    }

    /// The rows and changed-row count of a result, or its error.
    static func check(_ result: OpaquePointer?,
                      _ handle: OpaquePointer) throws -> (rows: [PostgresRow], affected: Int) {
        guard let result else {
            throw PostgresError(sqlState: "connection",
                                message: String(cString: PQerrorMessage(handle)).trimmingSuffix())
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
            return ([], Int(String(cString: PQcmdTuples(result))) ?? 0)
        case PGRES_TUPLES_OK:
            return (rows(result), Int(String(cString: PQcmdTuples(result))) ?? 0)
        default:
            throw error(result, handle)
        }
    }

    private static func rows(_ result: OpaquePointer) -> [PostgresRow] {
        let fieldCount = PQnfields(result), rowCount = PQntuples(result)
        var columns: [String: Int] = [:]
        for field in 0..<fieldCount { columns[String(cString: PQfname(result, field))] = Int(field) }
        return (0..<rowCount).map { row in
            PostgresRow(columns: columns, values: (0..<fieldCount).map { field in
                PQgetisnull(result, row, field) == 1 ? nil : String(cString: PQgetvalue(result, row, field))
            })
        }
    }

    private static func error(_ result: OpaquePointer, _ handle: OpaquePointer) -> PostgresError {
        func field(_ code: Character) -> String? {
            PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
        }
        guard let state = field("C") else {
            return PostgresError(sqlState: "connection",
                                 message: String(cString: PQerrorMessage(handle)).trimmingSuffix())
        }
        // The primary message only: the detail can quote a row's values.
        return PostgresError(sqlState: state, constraint: field("n"), message: field("M") ?? "error")
    }
}

extension String {
    func trimmingSuffix() -> String {
        var text = self
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
