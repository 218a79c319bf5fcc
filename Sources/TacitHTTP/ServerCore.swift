import Synchronization

/// What libmicrohttpd's callbacks share with `HTTPServer`: the handler, the limits, and
/// the book of live requests that the overload guard and `shutdown()` read.
final class ServerCore: Sendable {
    struct Book {
        var live: [ObjectIdentifier: ConnectionContext] = [:]
        var inFlight = 0
        var shuttingDown = false
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    /// A `shutdown()` step waiting for the book to reach some state.
    struct Waiter {
        let isDone: @Sendable (Book) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    let configuration: HTTPServer.Configuration
    let handler: HTTPHandler
    let book = Mutex(Book())
    /// Content-reader calls across all streams, so tests can prove idle streams are not polled.
    let streamReads = Atomic<Int>(0)
    /// Cuts off requests that take longer than `requestDeadline` to arrive.
    let deadlines: RequestDeadlines
    /// The TLS credentials as libmicrohttpd reads them, kept for the daemon's lifetime.
    let tls: TLSBuffers?

    init(configuration: HTTPServer.Configuration, handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        self.deadlines = RequestDeadlines(limit: configuration.requestDeadline)
        self.tls = configuration.tls.map(TLSBuffers.init)
    }

    func register(_ context: ConnectionContext) {
        book.withLock { $0.live[ObjectIdentifier(context)] = context }
    }

    func unregister(_ context: ConnectionContext) {
        let ready = book.withLock { book in
            book.live[ObjectIdentifier(context)] = nil
            return book.takeSatisfiedWaiters()
        }
        ready.forEach { $0.resume() }
    }

    enum Admission { case admitted, overloaded, shuttingDown }

    /// Admits a handler unless the server is stopping or `maxInFlight` handlers run;
    /// exempt paths are always admitted and not counted.
    func admit(_ context: ConnectionContext) -> Admission {
        let exempt = configuration.exemptPaths.contains(context.path)
        return book.withLock { book in
            if book.shuttingDown { return .shuttingDown }
            if exempt { return .admitted }
            if book.inFlight >= configuration.maxInFlight { return .overloaded }
            book.inFlight += 1
            context.countsTowardLimit = true
            return .admitted
        }
    }

    /// A counted handler returned.
    func handlerFinished() {
        let ready = book.withLock { book in
            book.inFlight -= 1
            return book.takeSatisfiedWaiters()
        }
        ready.forEach { $0.resume() }
    }

    /// Suspends until `isDone` holds for the book, or `timeout` passes.
    func wait(until isDone: @escaping @Sendable (Book) -> Bool, timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitIndefinitely(until: isDone) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitIndefinitely(until isDone: @escaping @Sendable (Book) -> Bool) async {
        let id = book.withLock { book in
            defer { book.nextWaiter += 1 }
            return book.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = book.withLock { book -> Bool in
                    if isDone(book) || Task.isCancelled { return true }
                    book.waiters[id] = Waiter(isDone: isDone, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            book.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }
}

extension ServerCore.Book {
    /// Removes and returns the continuations of waiters whose condition now holds.
    mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
        guard !waiters.isEmpty else { return [] }
        let done = waiters.filter { $0.value.isDone(self) }
        for id in done.keys { waiters[id] = nil }
        return done.values.map(\.continuation)
    }
}
