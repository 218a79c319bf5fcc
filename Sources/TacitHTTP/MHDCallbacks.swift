import CMicroHTTPD

// libmicrohttpd calls these plain functions on its own threads. They live here, not in
// a closure, so they inherit no actor isolation.

/// The access handler: creates the request's context, collects the body, then either
/// answers at once (413, 503) or suspends the connection and runs the Swift handler.
func tacitAccessHandler(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let conCls, let uploadDataSize else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    guard let raw = conCls.pointee else {
        let context = ConnectionContext(
            connection: connection, core: core,
            method: method.map { String(cString: $0) } ?? "GET",
            path: url.map { String(cString: $0) } ?? "/")
        let declared = RequestReader.declaredLength(connection)
        context.tooLarge = declared > context.maxBodyBytes
        conCls.pointee = Unmanaged.passRetained(context).toOpaque()
        core.register(context)
        if let problem = RequestScreen.problem(connection, method: method, version: version) {
            return RequestDispatcher.refuse(context, with: problem, core: core)
        }
        // Too big to be worth draining: answer before reading; libmicrohttpd then closes.
        return declared > context.drainLimit ? RequestDispatcher.requestComplete(context, core: core) : .YES
    }
    let context = Unmanaged<ConnectionContext>.fromOpaque(raw).takeUnretainedValue()
    if uploadDataSize.pointee > 0 {
        let bytes = UnsafeRawBufferPointer(start: uploadData, count: uploadData == nil ? 0 : uploadDataSize.pointee)
        uploadDataSize.pointee = 0
        // An endless oversized upload is cut off; a 413 cannot be queued mid-upload.
        return context.append(bytes) ? .YES : .NO
    }
    return RequestDispatcher.requestComplete(context, core: core)
}

/// The accept policy: once the server is draining, a new connection is closed as soon as
/// it is accepted (see `HTTPServer.shutdown()`).
func tacitAcceptPolicy(
    _ cls: UnsafeMutableRawPointer?,
    _ address: UnsafePointer<sockaddr>?,
    _ length: socklen_t
) -> MHD_Result {
    guard let cls else { return .NO }
    return Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().isShuttingDown ? .NO : .YES
}

/// The request-completed callback: the connection is done with this request (answered,
/// timed out, client gone or daemon stopping). Stops its stream and frees its context.
func tacitRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ reason: MHD_RequestTerminationCode
) {
    guard let cls else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    // A kept-alive connection's next request has the deadline of its own.
    if let connection { core.deadlines.arm(connection) }
    guard let conCls, let raw = conCls.pointee else { return }
    conCls.pointee = nil
    let context = Unmanaged<ConnectionContext>.fromOpaque(raw).takeRetainedValue()
    context.close()
    core.unregister(context)
}

/// libmicrohttpd accepted a connection or is about to close its socket: the request
/// deadlines start counting for it, or forget it.
func tacitConnectionNotify(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection else { return }
    let deadlines = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().deadlines
    if code == .CONNECTION_NOTIFY_STARTED { deadlines.opened(connection) } else { deadlines.closedByServer(connection) }
}

/// The content reader of a streaming response.
func tacitStreamReader(
    _ cls: UnsafeMutableRawPointer?,
    _ position: UInt64,
    _ buffer: UnsafeMutablePointer<CChar>?,
    _ max: Int
) -> Int {
    guard let cls, let buffer else { return Int(CMHD_READER_END_WITH_ERROR) }
    let pump = Unmanaged<StreamPump>.fromOpaque(cls).takeUnretainedValue()
    pump.core.streamReads.add(1, ordering: .relaxed)
    return pump.read(into: buffer, max: max)
}

/// Frees the pump reference held by a streaming response.
func tacitStreamFree(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<StreamPump>.fromOpaque(cls).release()
}

/// Collects one header or query value into the dictionary `cls` points to.
func tacitCollectValue(
    _ cls: UnsafeMutableRawPointer?,
    _ kind: MHD_ValueKind,
    _ key: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collector = cls.assumingMemoryBound(to: ValueCollector.self)
    collector.pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
    return .YES
}

/// libmicrohttpd's logger, through the C shim: one formatted message of the daemon whose
/// core is `cls`, written to its `errorLog` with every request path cut short.
func tacitLog(_ cls: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?) {
    guard let cls, let message else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    var text = String(cString: message)
    while text.last?.isNewline == true { text.removeLast() }
    core.configuration.errorLog(ServerLog.maskingPaths(text))
}
