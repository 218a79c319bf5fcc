/// Graceful shutdown steps; `HTTPServer.shutdown()` calls `drain()`, which turns new
/// connections away from its start, then stops the daemon.
extension ServerCore {
    /// How long closing connections get to send their last bytes once handlers and
    /// streams are ended.
    static let closingGracePeriod = Duration.seconds(1)

    /// True from the start of a drain: new requests are answered 503, and the accept policy
    /// closes new connections.
    var isShuttingDown: Bool { book.withLock { $0.shuttingDown } }

    func drain() async {
        book.withLock { $0.shuttingDown = true }
        await wait(until: { $0.inFlight == 0 }, timeout: configuration.shutdownGracePeriod)
        stopAll()
        await wait(until: { $0.live.isEmpty }, timeout: ServerCore.closingGracePeriod)
    }

    /// Answers every still-running handler with 503 and ends every stream, so no
    /// connection stays suspended: libmicrohttpd must not stop with suspended connections.
    func stopAll() {
        let contexts = book.withLock { book in
            book.shuttingDown = true
            return Array(book.live.values)
        }
        for context in contexts {
            context.stop(answering: Problems.shuttingDown)
        }
    }
}
