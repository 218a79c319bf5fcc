import CMicroHTTPD
import Synchronization

/// The body of a streaming response that its producer writes to directly, from any
/// thread, with no task in between: `write` copies the bytes into the connection's
/// buffer and wakes the connection if it was waiting. Built for fan-out, where one
/// event goes to a thousand streams and a task hop per stream would cost more than
/// the sends themselves.
///
/// libmicrohttpd's content reader takes from the buffer; when it is empty the reader
/// suspends the connection, so an idle stream holds no thread and burns no CPU.
/// Writes made before the response is sent are kept and sent first.
public final class StreamWriter: Sendable {
    fileprivate struct State {
        var buffer: [UInt8] = []
        var offset = 0
        var finished = false
        var closed = false
        /// The connection suspended itself on an empty buffer; the next write resumes it.
        var waiting: ConnectionHandle?
        var onTermination: (@Sendable () -> Void)?
        var terminated = false
    }

    private let state = Mutex(State())

    /// Creates a writer with nothing buffered.
    public init() {}

    /// Appends `bytes` to the stream. Does nothing once the stream is finished or closed.
    public func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let wake = state.withLock { state -> ConnectionHandle? in
            guard !state.closed, !state.finished else { return nil }
            state.buffer.append(contentsOf: bytes)
            return state.takeWaiting()
        }
        wake?.resume()
    }

    /// Ends the response once the buffered bytes are sent, and runs `onTermination`.
    public func finish() {
        let (wake, termination) = state.withLock { state -> (ConnectionHandle?, (@Sendable () -> Void)?) in
            state.finished = true
            return (state.takeWaiting(), state.takeTermination())
        }
        termination?()
        wake?.resume()
    }

    /// Runs once, when the stream ends: finished by its producer, the client gone, or
    /// the server shutting down. Set it before handing the writer to a response; if the
    /// stream already ended, it runs at once.
    public var onTermination: (@Sendable () -> Void)? {
        get { state.withLock { $0.onTermination } }
        set {
            let runNow = state.withLock { state -> (@Sendable () -> Void)? in
                guard !state.terminated else { return newValue }
                state.onTermination = newValue
                return nil
            }
            runNow?()
        }
    }

    /// True once the stream can take no more bytes.
    public var isEnded: Bool { state.withLock { $0.closed || $0.finished } }

    /// True while the connection is suspended on an empty buffer, for tests: from then on
    /// nothing reads the stream until the next write.
    var isIdle: Bool { state.withLock { $0.waiting != nil } }

    /// The connection is gone (or the response was never sent): drop what is buffered.
    func close() {
        let termination = state.withLock { state -> (@Sendable () -> Void)? in
            state.closed = true
            state.buffer = []
            state.offset = 0
            return state.takeTermination()
        }
        termination?()
    }

    /// libmicrohttpd's content reader: copies buffered bytes, ends the stream, or
    /// suspends `connection` until there is more. Runs on a libmicrohttpd thread.
    func read(into destination: UnsafeMutablePointer<CChar>, max: Int, connection: ConnectionHandle) -> Int {
        state.withLock { state -> Int in
            let available = state.buffer.count - state.offset
            if available > 0 {
                let count = min(available, max)
                state.buffer.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(destination)
                        .copyMemory(from: bytes.baseAddress! + state.offset, byteCount: count)
                }
                state.consume(count)
                return count
            }
            if state.finished || state.closed { return Int(CMHD_READER_END_OF_STREAM) }
            // Suspend while holding the lock: a writer can only resume after this.
            state.waiting = connection
            connection.suspend()
            return 0
        }
    }
}

extension StreamWriter.State {
    fileprivate mutating func takeWaiting() -> ConnectionHandle? {
        defer { waiting = nil }
        return waiting
    }

    fileprivate mutating func takeTermination() -> (@Sendable () -> Void)? {
        guard !terminated else { return nil }
        terminated = true
        defer { onTermination = nil }
        return onTermination
    }

    fileprivate mutating func consume(_ count: Int) {
        offset += count
        if offset == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            offset = 0
        }
    }
}
