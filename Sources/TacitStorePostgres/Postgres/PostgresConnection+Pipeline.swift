import Foundation
import CPostgres

/// Statements whose results matter only when they fail (a transaction's event, outbox and
/// send rows, its COMMIT) wait in `queued` and go to the server in one pipeline together
/// with the next statement whose answer is needed, as do a transaction's BEGIN and its
/// first statement. A create then costs two round trips instead of one per statement: on
/// a busy two-core machine each round trip is a wake-up of the server process and of this
/// connection's thread, which is where a PostgreSQL create spent its time.
extension PostgresConnection {
    /// Runs `query` with the next round trip; in a transaction its error, if any, is
    /// thrown by the statement that sends it, at the latest by the commit. Outside a
    /// transaction it runs at once.
    public func queue(_ query: PostgresQuery) throws {
        if queued.isEmpty && !inTransaction {
            try execute(query)
        } else {
            queued.append(query)
        }
    }

    /// Sends the queued statements and `last` (if any) in one pipeline; returns the last
    /// statement's rows and changed-row count. The first statement that failed is the
    /// error thrown: the server skips every statement after it up to the sync.
    func flush(then last: PostgresQuery?) throws -> (rows: [PostgresRow], affected: Int) {
        let queries = (beginPending ? ["BEGIN"] : []) + queued + (last.map { [$0] } ?? [])
        queued = []
        beginPending = false
        guard !queries.isEmpty else { return ([], 0) }
        let handle = try connected()
        let statements = try queries.map { query in
            let (text, parameters) = query.rendered
            // Transaction control has no parameters and runs unnamed: nothing to prepare.
            let name = parameters.isEmpty ? nil : try statement(text, parameterCount: parameters.count, handle)
            return (text, name, parameters)
        }
        guard PQenterPipelineMode(handle) == 1 else { throw Self.connectionError(handle) }
        // Results left unread (the connection broke) keep it in pipeline mode: drop it.
        defer { if PQexitPipelineMode(handle) != 1 { close() } }
        for (text, name, parameters) in statements {
            let sent = Self.withValues(parameters) { values, lengths, formats in
                if let name {
                    return PQsendQueryPrepared(handle, name, Int32(values.count), values, lengths, formats, 0)
                }
                return PQsendQueryParams(handle, text, 0, nil, nil, nil, nil, 0)
            }
            guard sent == 1 else { throw Self.connectionError(handle) }
        }
        guard PQpipelineSync(handle) == 1 else { throw Self.connectionError(handle) }
        return try results(count: statements.count, handle)
    }

    /// Reads one result per statement, then the sync's.
    private func results(count: Int, _ handle: OpaquePointer) throws -> (rows: [PostgresRow], affected: Int) {
        var failure: (any Error)?
        var last: (rows: [PostgresRow], affected: Int) = ([], 0)
        for _ in 0..<count {
            let result = PQgetResult(handle)
            if let result, PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                PQclear(result)
            } else {
                do { last = try Self.check(result, handle) } catch { failure = failure ?? error }
                PQclear(result)
            }
            // Each statement's results end with a null; a broken connection only gives nulls.
            while let extra = PQgetResult(handle) { PQclear(extra) }
            if result == nil { break }
        }
        if failure == nil || PQstatus(handle) == CONNECTION_OK {
            while let sync = PQgetResult(handle) {
                let done = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
                PQclear(sync)
                if done { break }
            }
        }
        if let failure { throw failure }
        return last
    }

    /// `parameters` as libpq takes them, for the length of `body`: each value's bytes (a C
    /// string for text, NULL for a null), their lengths, and their formats (0 text, 1 binary).
    static func withValues<T>(
        _ parameters: [PostgresValue],
        _ body: (_ values: [UnsafePointer<CChar>?], _ lengths: [Int32], _ formats: [Int32]) -> T
    ) -> T {
        var lengths = [Int32](repeating: 0, count: parameters.count)
        var formats = [Int32](repeating: 0, count: parameters.count)
        let buffers: [UnsafeMutableRawPointer?] = parameters.enumerated().map { position, value in
            switch value {
            case .null: return nil
            case .text(let string): return UnsafeMutableRawPointer(strdup(string))
            case .bytes(let bytes):
                lengths[position] = Int32(bytes.count)
                formats[position] = 1
                let buffer = malloc(max(bytes.count, 1))!
                memcpy(buffer, bytes, bytes.count)
                return buffer
            }
        }
        defer { buffers.forEach { free($0) } }
        return body(buffers.map { $0.map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) } }, lengths, formats)
    }

    static func connectionError(_ handle: OpaquePointer) -> PostgresError {
        PostgresError(sqlState: "connection", message: String(cString: PQerrorMessage(handle)).trimmingSuffix())
    }
}
