import Synchronization
import TacitHTTP
import TacitTesting

/// Hands out response streams that the test drives: it awaits how many were opened,
/// yields chunks to all of them, finishes them, and awaits their terminations.
final class StreamHub: Sendable {
    private let continuations = Mutex<[AsyncStream<[UInt8]>.Continuation]>([])
    let opened = AsyncCounter()
    let terminated = AsyncCounter()
    private let greeting: String?

    /// `greeting`, when given, is the first chunk of every stream.
    init(greeting: String? = nil) {
        self.greeting = greeting
    }

    /// A handler answering every request with a stream from this hub.
    var handler: HTTPHandler {
        { [self] _ in .eventStream(makeStream()) }
    }

    func makeStream() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.onTermination = { [terminated] _ in terminated.increment() }
        if let greeting { continuation.yield(Array(greeting.utf8)) }
        continuations.withLock { $0.append(continuation) }
        opened.increment()
        return stream
    }

    func yieldAll(_ text: String) {
        for continuation in continuations.withLock({ $0 }) { continuation.yield(Array(text.utf8)) }
    }

    func finishAll() {
        for continuation in continuations.withLock({ $0 }) { continuation.finish() }
    }
}

/// Moves non-Sendable test connections between the test and its socket thread; each
/// connection is used by one thread at a time.
final class ConnectionBatch: @unchecked Sendable {  // safe: handed over, never shared concurrently
    var connections: [RawConnection] = []
}

extension RawConnection {
    /// What a client sends to open the test servers' event stream.
    static let eventStreamRequest = "GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"

    /// Connects, asks for the event stream and, given `marker`, reads up to it; off the
    /// task pool, as every blocking socket call in these tests.
    static func eventStream(port: Int, readingUntil marker: String? = nil) async throws -> RawConnection {
        try await offThePool {
            let connection = try RawConnection(port: port)
            try connection.send(eventStreamRequest)
            if let marker { _ = try connection.read(until: marker) }
            return connection
        }
    }
}
