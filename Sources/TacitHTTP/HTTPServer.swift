import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server over libmicrohttpd that runs async handlers.
///
/// libmicrohttpd's few threads only parse requests and write responses: each request's
/// connection is suspended while its handler runs as a Swift task, and a streaming
/// response's connection is suspended while its stream has nothing to send.
public final class HTTPServer: Sendable {
    private struct Running {
        var daemon: OpaquePointer?
        var port = 0
        var started = false
    }

    private let core: ServerCore
    private let running = Mutex(Running())

    /// Creates a server; nothing listens until `start()`.
    public init(configuration: HTTPServer.Configuration, handler: @escaping HTTPHandler) {
        self.core = ServerCore(configuration: configuration, handler: handler)
    }

    /// The configuration the server was created with.
    public var configuration: Configuration { core.configuration }

    /// The port the server listens on (the real one when configured with 0); 0 before `start()`.
    public var port: Int { running.withLock { $0.port } }

    /// How often streams' content reader ran, for tests.
    var streamReaderCalls: Int { core.streamReads.load(ordering: .relaxed) }

    /// How many connections were closed at their request deadline, for tests.
    var requestsCutOff: Int { core.deadlines.closed.load(ordering: .relaxed) }

    /// Binds and starts serving. Throws `HTTPServerError` when the address is invalid or taken.
    public func start() throws {
        try start(unlessRunning: false)
    }

    /// Serves until the calling task is cancelled, then shuts down gracefully. Starts the
    /// server first unless `start()` already did, so callers can learn the port early.
    public func run() async throws {
        try start(unlessRunning: true)
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3_600))
        }
        // The caller is cancelled, and shutdown's bounded waits must not inherit that.
        await Task.detached { await self.shutdown() }.value
    }

    private func start(unlessRunning: Bool) throws {
        try running.withLock { state in
            if unlessRunning, state.daemon != nil { return }
            guard !state.started else {
                throw HTTPServerError(code: .alreadyStarted, message: "The server was already started.")
            }
            let daemon = try DaemonStarter.start(core)
            core.deadlines.start()
            state.daemon = daemon
            state.port = Int(cmhd_bound_port(daemon))
            state.started = true
        }
    }

    /// Stops gracefully: closes new connections as they are accepted, answers new requests
    /// on open ones with 503, waits up to `shutdownGracePeriod` for running handlers, ends
    /// open streams (cancelling their producers), then closes every connection.
    ///
    /// New connections are turned away by the accept policy, not by `MHD_quiesce_daemon`:
    /// on an epoll daemon with its own threads, quiescing races with the threads' own
    /// removal of the listening socket from their epoll sets, and whichever loses aborts
    /// the process ("Failed to remove listen FD from epoll set", libmicrohttpd 0.9.75).
    public func shutdown() async {
        guard let daemon = running.withLock({ state -> OpaquePointer? in
            defer { state.daemon = nil }
            return state.daemon
        }) else { return }
        await core.drain()
        MHD_stop_daemon(daemon)
        core.deadlines.stop()
    }

    /// True once `shutdown()` has begun, for tests.
    var isShuttingDown: Bool { core.isShuttingDown }

    deinit {
        // A server dropped without shutdown() must still not leave C threads calling into freed memory.
        guard let daemon = running.withLock({ $0.daemon }) else { return }
        core.stopAll()
        MHD_stop_daemon(daemon)
        core.deadlines.stop()
    }
}
