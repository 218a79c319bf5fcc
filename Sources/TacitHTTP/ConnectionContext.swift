import Synchronization

/// The state of one request on one connection, kept in libmicrohttpd's `*con_cls` from
/// the first callback until the request-completed callback.
///
/// The reading fields are touched only by libmicrohttpd's callbacks for this connection,
/// which it never runs concurrently; everything a handler task or `shutdown()` touches
/// lives in `outcome`.
final class ConnectionContext: @unchecked Sendable {  // safe: see the split above
    enum Phase {
        case reading
        case handling
        case answered
    }

    /// What settles a running handler: its response or, at shutdown, a 503. The first
    /// to settle it resumes the connection; the other is dropped.
    struct Outcome {
        var awaitingHandler = false
        var response: HTTPResponse?
        var pump: StreamPump?
        var stopping = false
    }

    let connection: ConnectionHandle
    let core: ServerCore
    let method: String
    let path: String
    let maxBodyBytes: Int
    var phase = Phase.reading
    var body: [UInt8] = []
    var tooLarge = false
    /// Bytes received so far, kept or not.
    var received = 0
    var countsTowardLimit = false
    private let outcome = Mutex(Outcome())

    init(connection: OpaquePointer, core: ServerCore, method: String, path: String) {
        self.connection = ConnectionHandle(pointer: connection)
        self.core = core
        self.method = method
        self.path = path
        self.maxBodyBytes = core.configuration.maxBodyBytes
    }

    /// How much of an oversized body is read and dropped so the client can still read
    /// its 413; past this the connection is closed.
    var drainLimit: Int { max(maxBodyBytes.multipliedReportingOverflow(by: 16).partialValue, 8 << 20) }

    /// Adds uploaded bytes, or remembers that the body is over the limit and drops them.
    /// Returns false once an oversized body passes `drainLimit`.
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        received += bytes.count
        guard !tooLarge else { return received <= drainLimit }
        guard received <= maxBodyBytes else {
            tooLarge = true
            body = []
            return true
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Suspends the connection while its handler runs; false (and not suspended) when
    /// shutdown already began. Suspending under the lock means no `settle` can resume
    /// the connection before it is suspended.
    func suspendForHandler() -> Bool {
        outcome.withLock { state in
            guard !state.stopping else { return false }
            state.awaitingHandler = true
            connection.suspend()
            return true
        }
    }

    /// Settles the handler's outcome once; resumes the suspended connection if this call won.
    @discardableResult
    func settle(with response: HTTPResponse) -> Bool {
        let won = outcome.withLock { state -> Bool in
            guard state.awaitingHandler else { return false }
            state.awaitingHandler = false
            state.response = response
            return true
        }
        if won { connection.resume() }
        return won
    }

    /// Attaches the pump of a streaming response; ends it at once if the server is stopping.
    func attach(_ pump: StreamPump) {
        let stopping = outcome.withLock { state -> Bool in
            state.pump = pump
            return state.stopping
        }
        if stopping { pump.finish() }
    }

    /// The connection finished this request: stop its stream's producer.
    func close() {
        outcome.withLock { $0.pump }?.close()
    }

    /// Shutdown: answer a running handler with `response` and end a stream.
    func stop(answering response: HTTPResponse) {
        let pump = outcome.withLock { state -> StreamPump? in
            state.stopping = true
            return state.pump
        }
        settle(with: response)
        pump?.finish()
    }

    /// The settled response, taken once the connection is resumed.
    func takeResponse() -> HTTPResponse? {
        outcome.withLock { state in
            defer { state.response = nil }
            return state.response
        }
    }
}
