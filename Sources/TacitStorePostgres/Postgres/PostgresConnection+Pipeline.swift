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
        let queries = queued + (last.map { [$0] } ?? [])
        queued = []
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
            let sent = Self.withValues(parameters) { values in
                if let name { return PQsendQueryPrepared(handle, name, Int32(values.count), values, nil, nil, 0) }
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

    /// `parameters` as the C strings libpq takes, NULL for a null, for the length of `body`.
    static func withValues<T>(_ parameters: [PostgresValue], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let strings: [UnsafeMutablePointer<CChar>?] = parameters.map { value in
            if case .text(let string) = value { return strdup(string) }
            return nil
        }
        defer { strings.forEach { free($0) } }
        return body(strings.map { UnsafePointer($0) })
    }

    static func connectionError(_ handle: OpaquePointer) -> PostgresError {
        PostgresError(sqlState: "connection", message: String(cString: PQerrorMessage(handle)).trimmingSuffix())
    }
}
