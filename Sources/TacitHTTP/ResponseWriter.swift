import CMicroHTTPD

/// Turns an `HTTPResponse` into a libmicrohttpd response and queues it.
enum ResponseWriter {
    /// Headers libmicrohttpd computes itself; setting them twice would corrupt framing.
    private static let managedHeaders: Set<String> = ["content-length", "transfer-encoding", "date"]

    static func queue(_ response: HTTPResponse, on context: ConnectionContext) -> MHD_Result {
        guard let handle = makeHandle(response.body, context: context) else { return .NO }
        defer { MHD_destroy_response(handle) }
        for (name, value) in response.headers where !managedHeaders.contains(name.lowercased()) {
            _ = MHD_add_response_header(handle, name, value)
        }
        return MHD_queue_response(context.connection.pointer, UInt32(clamping: response.status), handle)
    }

    private static func makeHandle(_ body: HTTPResponse.Body, context: ConnectionContext) -> OpaquePointer? {
        switch body {
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .stream(let stream):
            return makeStreamHandle(StreamPump.draining(stream), context: context)
        case .writer(let writer):
            return makeStreamHandle(writer, context: context)
        }
    }

    private static func makeStreamHandle(_ writer: StreamWriter, context: ConnectionContext) -> OpaquePointer? {
        let pump = StreamPump(writer: writer, connection: context.connection, core: context.core)
        context.attach(pump)
        return MHD_create_response_from_callback(
            UInt64.max /* MHD_SIZE_UNKNOWN */, 16 * 1024, tacitStreamReader,
            Unmanaged.passRetained(pump).toOpaque(), tacitStreamFree)
    }
}
