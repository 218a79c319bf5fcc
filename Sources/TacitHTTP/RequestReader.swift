import CMicroHTTPD

/// Reads what libmicrohttpd parsed about a request into Swift values.
enum RequestReader {
    /// The declared `Content-Length`, or 0 when absent or unreadable.
    static func declaredLength(_ connection: OpaquePointer) -> Int {
        guard let raw = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else { return 0 }
        let text = String(cString: raw).filter { $0 != " " && $0 != "\t" }
        return Int(text) ?? Int.max
    }

    /// The complete request for the handler, taking the context's body.
    static func request(for context: ConnectionContext) -> HTTPRequest {
        let connection = context.connection.pointer
        var request = HTTPRequest(method: context.method, path: context.path)
        request.headers = values(connection, kind: .HEADER_KIND, isHeader: true)
        request.query = values(connection, kind: .GET_ARGUMENT_KIND, isHeader: false)
        request.body = context.body
        request.remoteAddress = remoteAddress(connection)
        context.body = []
        return request
    }

    static func values(_ connection: OpaquePointer, kind: MHD_ValueKind, isHeader: Bool) -> [String: String] {
        var collector = ValueCollector(isHeader: isHeader)
        _ = withUnsafeMutablePointer(to: &collector) { pointer in
            MHD_get_connection_values(connection, kind, tacitCollectValue, pointer)
        }
        return collector.values
    }

    static func remoteAddress(_ connection: OpaquePointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard let base = buffer.baseAddress, cmhd_client_address(connection, base, 64) == 0 else { return "" }
            return String(cString: base)
        }
    }
}
